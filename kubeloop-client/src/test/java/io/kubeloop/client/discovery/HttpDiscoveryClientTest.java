package io.kubeloop.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class HttpDiscoveryClientTest {

    private FakeDiscoveryServer server;
    private JdkHttpTransport transport;

    private HttpDiscoveryClient client(FakeDiscoveryServer s) {
        server = s;
        transport = new JdkHttpTransport(s.uri());
        return new HttpDiscoveryClient(transport);
    }

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static final List<String> GROUP_ORDER = List.of(
            "",
            "apps",
            "events.k8s.io",
            "autoscaling",
            "batch",
            "apiextensions.k8s.io",
            "coordination.k8s.io",
            "samplecontroller.k8s.io");

    @Test
    void aggregatedDiscoveryNeedsOnlyApiAndApis() {
        ServerResources result = client(FakeDiscoveryServer.aggregated()).serverGroupsAndResources();

        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
        assertThat(result.isComplete()).isTrue();
        assertThat(result.groups()).extracting(APIGroup::name).containsExactlyElementsOf(GROUP_ORDER);
        assertThat(result.resources()).hasSize(9);
    }

    @Test
    void requestsAskForAggregatedV2ThenV2beta1ThenLegacy() {
        client(FakeDiscoveryServer.aggregated()).serverGroups();

        assertThat(server.requests())
                .allSatisfy(
                        r -> assertThat(r.accept())
                                .isEqualTo(
                                        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                                                + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"));
    }

    @Test
    void aggregatedResourcesCarryKindScopeSingularVerbsAndSubresources() {
        ServerResources result = client(FakeDiscoveryServer.aggregated()).serverGroupsAndResources();

        for (APIResourceList list : result.resourceLists()) {
            assertThat(list.resources()).isNotEmpty().allSatisfy(r -> {
                assertThat(r.kind()).isNotBlank();
                assertThat(r.singularName()).isNotBlank();
                assertThat(r.verbs()).isNotEmpty();
                assertThat(r.groupVersion()).isEqualTo(list.groupVersion());
            });
        }
        APIResourceList apps = result.resources(new GroupVersion("apps", "v1")).orElseThrow();
        APIResource deployments = apps.resource("deployments").orElseThrow();
        assertThat(deployments.namespaced()).isTrue();
        assertThat(deployments.shortNames()).containsExactly("deploy");
        assertThat(deployments.categories()).containsExactly("all");
        assertThat(deployments.responseKind()).isEqualTo(new GroupVersionKind("apps", "v1", "Deployment"));
        APIResource scale = apps.resource("deployments/scale").orElseThrow();
        assertThat(scale.isSubresource()).isTrue();
        assertThat(scale.parentResource()).isEqualTo("deployments");
        assertThat(scale.subresource()).isEqualTo("scale");
        assertThat(scale.singularName()).isEqualTo("deployment");
        assertThat(scale.responseKind()).isEqualTo(new GroupVersionKind("autoscaling", "v1", "Scale"));
        assertThat(scale.verbs()).containsExactly("get", "patch", "update");
        APIResource namespaces = result.resources(GroupVersion.CORE_V1)
                .orElseThrow()
                .resource("namespaces")
                .orElseThrow();
        assertThat(namespaces.namespaced()).isFalse();
        APIGroup autoscaling = result.group("autoscaling").orElseThrow();
        assertThat(autoscaling.versions()).containsExactly("v2", "v1");
        assertThat(autoscaling.preferredVersion()).isEqualTo("v2");
    }

    @Test
    void legacyServerIsReadPerGroupVersionAndGivesTheSameResultAsAggregated() {
        ServerResources aggregated;
        try (FakeDiscoveryServer agg = FakeDiscoveryServer.aggregated();
                JdkHttpTransport t = new JdkHttpTransport(agg.uri())) {
            aggregated = new HttpDiscoveryClient(t).serverGroupsAndResources();
        }

        ServerResources legacy = client(FakeDiscoveryServer.legacy()).serverGroupsAndResources();

        assertThat(server.discoveryPaths())
                .hasSize(11)
                .startsWith("/api", "/apis")
                .containsOnlyOnce(
                        "/api/v1",
                        "/apis/apps/v1",
                        "/apis/events.k8s.io/v1",
                        "/apis/autoscaling/v2",
                        "/apis/autoscaling/v1",
                        "/apis/batch/v1",
                        "/apis/apiextensions.k8s.io/v1",
                        "/apis/coordination.k8s.io/v1",
                        "/apis/samplecontroller.k8s.io/v1alpha1");
        assertThat(legacy.groups()).isEqualTo(aggregated.groups());
        // legacy servers leave a subresource's singularName empty; aggregated conversion copies the parent's
        assertThat(withoutSubresourceSingulars(legacy)).isEqualTo(withoutSubresourceSingulars(aggregated));
        assertThat(legacy.isComplete()).isTrue();
    }

    static List<APIResource> withoutSubresourceSingulars(ServerResources result) {
        return result.resourceLists().stream()
                .flatMap(l -> l.resources().stream())
                .map(r -> r.isSubresource()
                        ? new APIResource(
                                r.groupVersion(),
                                r.name(),
                                "",
                                r.namespaced(),
                                r.responseKind(),
                                r.verbs(),
                                r.shortNames(),
                                r.categories())
                        : r)
                .toList();
    }

    @Test
    void legacyGroupVersionsAreFetchedOnSeparateThreads() {
        Set<String> threadNames = ConcurrentHashMap.newKeySet();
        server = FakeDiscoveryServer.legacy();
        transport = new JdkHttpTransport(server.uri());
        HttpDiscoveryClient client = new HttpDiscoveryClient(
                transport,
                r -> Thread.ofVirtual().unstarted(() -> {
                    threadNames.add(Thread.currentThread().toString());
                    r.run();
                }));

        client.serverGroupsAndResources();

        assertThat(threadNames).hasSize(9);
    }

    @Test
    void contentTypeDecidesTheFormatWhateverTheParameterOrder() {
        assertThat(DiscoveryJson.isAggregated(FakeDiscoveryServer.V2)).isTrue();
        assertThat(DiscoveryJson.isAggregated(FakeDiscoveryServer.V2BETA1)).isTrue();
        assertThat(DiscoveryJson.isAggregated(
                        "application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io"))
                .isTrue();
        assertThat(DiscoveryJson.isAggregated(
                        "application/json;v=v2;charset=utf-8;g=apidiscovery.k8s.io;as=APIGroupDiscoveryList"))
                .isTrue();
        assertThat(DiscoveryJson.isAggregated(
                        "Application/JSON;g=\"apidiscovery.k8s.io\";v=v2;as=APIGroupDiscoveryList"))
                .isTrue();
        assertThat(DiscoveryJson.isAggregated("application/json")).isFalse();
        assertThat(DiscoveryJson.isAggregated("application/json; charset=utf-8"))
                .isFalse();
        assertThat(DiscoveryJson.isAggregated("application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList"))
                .isFalse();
        assertThat(DiscoveryJson.isAggregated("application/json;g=meta.k8s.io;v=v1;as=Table"))
                .isFalse();
        assertThat(DiscoveryJson.isAggregated("application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"))
                .isFalse();
        assertThat(DiscoveryJson.isAggregated(null)).isFalse();
    }

    @Test
    void reorderedContentTypeParametersFromTheServerStillMeanAggregated() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.contentType("/api", "application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io");
        s.contentType("/apis", "application/json; charset=utf-8; as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2");

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
        assertThat(result.resources()).hasSize(9);
    }

    @Test
    void v2beta1AnswersAreReadLikeV2() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.contentType("/api", FakeDiscoveryServer.V2BETA1);
        s.contentType("/apis", FakeDiscoveryServer.V2BETA1);

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
        assertThat(result.resources()).hasSize(9);
    }

    @Test
    void aggregatedApiWithLegacyApisFetchesEveryGroupVersion() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.contentType("/apis", "application/json");
        s.edit("/apis", ignored ->
                (ObjectNode) KubeJson.mapper().readTree(FakeDiscoveryServer.fixture("legacy/apis.json")));

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(server.discoveryPaths()).hasSize(11).contains("/api/v1", "/apis/apps/v1");
        assertThat(result.resources()).hasSize(9);
    }

    @Test
    void missingApiMeansNoCoreGroup() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.fail("/api", 404);

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(result.groups())
                .extracting(APIGroup::name)
                .doesNotContain("")
                .contains("apps");
        assertThat(result.isComplete()).isTrue();
    }

    @Test
    void missingApisIsFatal() {
        FakeDiscoveryServer s = FakeDiscoveryServer.legacy();
        s.fail("/apis", 404);
        HttpDiscoveryClient client = client(s);

        assertThatThrownBy(client::serverGroupsAndResources).isInstanceOf(RuntimeException.class);
        assertThat(server.discoveryPaths()).containsExactly("/api", "/apis");
    }

    @Test
    void failingGroupVersionYieldsPartialResultNamingIt() {
        FakeDiscoveryServer s = FakeDiscoveryServer.legacy();
        s.fail("/apis/batch/v1", 503);

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(result.failures()).containsOnlyKeys(new GroupVersion("batch", "v1"));
        assertThat(result.resources()).hasSize(8).doesNotContainKey(new GroupVersion("batch", "v1"));
        assertThat(result.groups()).extracting(APIGroup::name).contains("batch");
        assertThatThrownBy(result::requireComplete)
                .isInstanceOf(GroupDiscoveryFailedException.class)
                .hasMessageStartingWith("unable to retrieve the complete list of server APIs: batch/v1: ")
                .satisfies(e -> assertThat(((GroupDiscoveryFailedException) e).failures())
                        .containsOnlyKeys(new GroupVersion("batch", "v1")));
    }

    @Test
    void staleGroupVersionIsAFailureAndLeavesTheGroup() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.edit("/apis", doc -> {
            for (JsonNode item : doc.path("items").values()) {
                if (item.path("metadata").path("name").asString().equals("autoscaling")) {
                    ((ObjectNode) item.path("versions").get(1)).put("freshness", "Stale");
                }
            }
            return doc;
        });

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(result.failures()).containsOnlyKeys(new GroupVersion("autoscaling", "v1"));
        assertThat(result.failures().values().iterator().next())
                .hasMessage("stale GroupVersion discovery: autoscaling/v1");
        assertThat(result.group("autoscaling").orElseThrow().versions()).containsExactly("v2");
        assertThat(result.resources()).doesNotContainKey(new GroupVersion("autoscaling", "v1"));
        assertThat(result.apiVersions()).doesNotContain("autoscaling/v1").contains("autoscaling/v2");
    }

    @Test
    void resourcesAndSubresourcesWithoutResponseKindAreDropped() {
        FakeDiscoveryServer s = FakeDiscoveryServer.aggregated();
        s.edit("/apis", doc -> {
            for (JsonNode item : doc.path("items").values()) {
                for (JsonNode version : item.path("versions").values()) {
                    for (JsonNode r : version.path("resources").values()) {
                        String name = r.path("resource").asString();
                        if (name.equals("leases")) {
                            ((ObjectNode) r).remove("responseKind");
                        }
                        if (name.equals("deployments")) {
                            ((ObjectNode) r.path("subresources").get(0)).remove("responseKind");
                        }
                    }
                }
            }
            return doc;
        });

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(result.resources(new GroupVersion("coordination.k8s.io", "v1"))
                        .orElseThrow()
                        .resources())
                .isEmpty();
        APIResourceList apps = result.resources(new GroupVersion("apps", "v1")).orElseThrow();
        assertThat(apps.resource("deployments")).isPresent();
        assertThat(apps.resource("deployments/scale")).isEmpty();
        assertThat(apps.resource("deployments/status")).isPresent();
    }

    @Test
    void missingCoreV1IsAnEmptyList() {
        FakeDiscoveryServer s = FakeDiscoveryServer.legacy();
        s.fail("/api/v1", 404);

        APIResourceList list = client(s).serverResourcesForGroupVersion(GroupVersion.CORE_V1);

        assertThat(list.resources()).isEmpty();
    }

    @Test
    void malformedGroupVersionDocumentIsAFailureOfThatGroupVersion() {
        FakeDiscoveryServer s = FakeDiscoveryServer.legacy();
        s.edit("/apis/apps/v1", doc -> doc.put("groupVersion", "apps/v2"));

        ServerResources result = client(s).serverGroupsAndResources();

        assertThat(result.failures()).containsOnlyKeys(new GroupVersion("apps", "v1"));
        assertThat(result.failures().get(new GroupVersion("apps", "v1")))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("describes apps/v2, expected apps/v1");
    }

    @Test
    void serverVersionIsRead() {
        ServerVersion version = client(FakeDiscoveryServer.aggregated()).serverVersion();

        assertThat(version.gitVersion()).isEqualTo("v1.32.2");
        assertThat(version.major()).isEqualTo("1");
        assertThat(version.minor()).isEqualTo("32");
        assertThat(version.platform()).isEqualTo("linux/amd64");
    }

    @Test
    void listingsMatchKubectlApiResourcesAndApiVersions() {
        ServerResources result = client(FakeDiscoveryServer.aggregated()).serverGroupsAndResources();

        List<APIResource> rows = result.apiResourcesListing();
        assertThat(rows).noneMatch(APIResource::isSubresource);
        assertThat(rows.getFirst().name()).isEqualTo("bindings");
        assertThat(rows)
                .extracting(r -> r.name() + " " + r.groupVersion().apiVersion())
                .contains("horizontalpodautoscalers autoscaling/v2", "events v1", "events events.k8s.io/v1")
                .doesNotContain("horizontalpodautoscalers autoscaling/v1")
                .containsSubsequence(
                        "pods v1",
                        "deployments apps/v1",
                        "horizontalpodautoscalers autoscaling/v2",
                        "cronjobs batch/v1",
                        "leases coordination.k8s.io/v1",
                        "foos samplecontroller.k8s.io/v1alpha1");
        assertThat(result.apiVersions())
                .containsExactly(
                        "apiextensions.k8s.io/v1",
                        "apps/v1",
                        "autoscaling/v1",
                        "autoscaling/v2",
                        "batch/v1",
                        "coordination.k8s.io/v1",
                        "events.k8s.io/v1",
                        "samplecontroller.k8s.io/v1alpha1",
                        "v1");
    }
}
