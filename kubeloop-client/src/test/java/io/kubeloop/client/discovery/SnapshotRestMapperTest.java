package io.kubeloop.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.GroupKind;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnapshotRestMapperTest {

    /** The aggregated fixtures, converted without HTTP. */
    static ServerResources fixture() {
        DiscoveryJson.Aggregated core =
                DiscoveryJson.parseAggregated(FakeDiscoveryServer.fixture("aggregated/api.json"), "api");
        DiscoveryJson.Aggregated apis =
                DiscoveryJson.parseAggregated(FakeDiscoveryServer.fixture("aggregated/apis.json"), "apis");
        List<APIGroup> groups = new ArrayList<>(core.groups());
        groups.addAll(apis.groups());
        Map<GroupVersion, APIResourceList> resources = new LinkedHashMap<>(core.resources());
        resources.putAll(apis.resources());
        return new ServerResources(groups, resources, Map.of());
    }

    private final SnapshotRestMapper mapper = new SnapshotRestMapper(fixture());

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // short, plural, singular, kind (any case), resource.group, resource.version.group, kind forms
        "deploy,                          deployments.v1.apps",
        "deployments,                     deployments.v1.apps",
        "deployment,                      deployments.v1.apps",
        "Deployment,                      deployments.v1.apps",
        "DEPLOYMENTS,                     deployments.v1.apps",
        "deployments.apps,                deployments.v1.apps",
        "deployments.v1.apps,             deployments.v1.apps",
        "Deployment.apps,                 deployments.v1.apps",
        "Deployment.v1.apps,              deployments.v1.apps",
        "deploy.apps,                     deployments.v1.apps",
        "deploy.app,                      deployments.v1.apps",
        // preferred version unless one is given
        "hpa,                             horizontalpodautoscalers.v2.autoscaling",
        "horizontalpodautoscalers,        horizontalpodautoscalers.v2.autoscaling",
        "HorizontalPodAutoscaler,         horizontalpodautoscalers.v2.autoscaling",
        "horizontalpodautoscalers.v1.autoscaling, horizontalpodautoscalers.v1.autoscaling",
        "HorizontalPodAutoscaler.v1.autoscaling,  horizontalpodautoscalers.v1.autoscaling",
        // the core group wins over other groups serving the same name
        "events,                          events.v1",
        "ev,                              events.v1",
        "Event,                           events.v1",
        "events.events.k8s.io,            events.v1.events.k8s.io",
        "ev.events.k8s.io,                events.v1.events.k8s.io",
        // core and cluster-scoped resources, CRDs; the core group fully specified is "pods.v1." (kubectl)
        "po,                              pods.v1",
        "pods.v1.,                        pods.v1",
        "ns,                              namespaces.v1",
        "cm,                              configmaps.v1",
        "crd,                             customresourcedefinitions.v1.apiextensions.k8s.io",
        "crds,                            customresourcedefinitions.v1.apiextensions.k8s.io",
        "foos,                            foos.v1alpha1.samplecontroller.k8s.io",
        "foo,                             foos.v1alpha1.samplecontroller.k8s.io",
        "Foo,                             foos.v1alpha1.samplecontroller.k8s.io",
        "foos.samplecontroller.k8s.io,    foos.v1alpha1.samplecontroller.k8s.io",
        "Foo.v1alpha1.samplecontroller.k8s.io, foos.v1alpha1.samplecontroller.k8s.io",
    })
    void resolvesLikeKubectl(String input, String expected) {
        assertThat(mapper.resolve(input).groupVersionResource().format()).isEqualTo(expected);
    }

    @Test
    void mappingCarriesKindScopeAndDiscoveryDetails() {
        RestMapping ns = mapper.resolve("ns");
        assertThat(ns.namespaced()).isFalse();
        assertThat(ns.groupVersionKind()).isEqualTo(new GroupVersionKind("", "v1", "Namespace"));
        assertThat(ns.singular()).isEqualTo("namespace");
        assertThat(ns.shortNames()).containsExactly("ns");

        RestMapping deploy = mapper.resolve("deploy");
        assertThat(deploy.namespaced()).isTrue();
        assertThat(deploy.groupVersionKind()).isEqualTo(new GroupVersionKind("apps", "v1", "Deployment"));
        assertThat(deploy.verbs()).contains("watch", "patch");
        assertThat(deploy.categories()).containsExactly("all");
        assertThat(deploy.supports("deletecollection")).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"nosuchthing", "deployments.v2.apps", "foos.samplecontroller", "deploy.batch", "status", "pods.v1"})
    void unknownInputIsATypedNoMatchWithKubectlsMessage(String input) {
        String first = input.split("\\.")[0];
        assertThatThrownBy(() -> mapper.resolve(input))
                .isInstanceOf(NoMatchException.class)
                .hasMessage("the server doesn't have a resource type \"" + first + "\"")
                .satisfies(e -> assertThat(((NoMatchException) e).input()).isEqualTo(input));
    }

    @Test
    void subresourcesAreNotResolvable() {
        assertThatThrownBy(() -> mapper.resolve("deployments/status")).isInstanceOf(NoMatchException.class);
    }

    @Test
    void equalPriorityMatchesAreAmbiguousAndListed() {
        GroupVersion gv = new GroupVersion("zoo.example.com", "v1");
        APIResource sheep =
                new APIResource(gv, "sheep", "sheep", true, gv.withKind("Sheep"), List.of("get"), null, null);
        APIResource sheeps =
                new APIResource(gv, "sheeps", "sheep", true, gv.withKind("Flock"), List.of("get"), null, null);
        ServerResources discovery = new ServerResources(
                List.of(new APIGroup("zoo.example.com", List.of("v1"), "v1")),
                Map.of(gv, new APIResourceList(gv, List.of(sheep, sheeps))),
                Map.of());

        assertThatThrownBy(() -> new SnapshotRestMapper(discovery).resolve("sheep"))
                .isInstanceOf(AmbiguousMatchException.class)
                .hasMessage("\"sheep\" is ambiguous, it matches sheep.v1.zoo.example.com (Sheep), "
                        + "sheeps.v1.zoo.example.com (Flock)")
                .satisfies(e ->
                        assertThat(((AmbiguousMatchException) e).candidates()).hasSize(2));
        assertThat(new SnapshotRestMapper(discovery)
                        .resolve("sheeps")
                        .groupVersionKind()
                        .kind())
                .isEqualTo("Flock");
    }

    @Test
    void groupsLaterInServerOrderLoseToEarlierOnes() {
        GroupVersion a = new GroupVersion("a.example.com", "v1");
        GroupVersion b = new GroupVersion("b.example.com", "v1");
        APIResource inA =
                new APIResource(a, "widgets", "widget", true, a.withKind("Widget"), List.of("get"), List.of("w"), null);
        APIResource inB =
                new APIResource(b, "widgets", "widget", true, b.withKind("Widget"), List.of("get"), List.of("w"), null);
        ServerResources discovery = new ServerResources(
                List.of(
                        new APIGroup("b.example.com", List.of("v1"), "v1"),
                        new APIGroup("a.example.com", List.of("v1"), "v1")),
                Map.of(a, new APIResourceList(a, List.of(inA)), b, new APIResourceList(b, List.of(inB))),
                Map.of());
        SnapshotRestMapper m = new SnapshotRestMapper(discovery);

        assertThat(m.resolve("widgets").groupVersionResource().group()).isEqualTo("b.example.com");
        assertThat(m.resolve("w").groupVersionResource().group()).isEqualTo("b.example.com");
        assertThat(m.resolve("w.a.example.com").groupVersionResource().group()).isEqualTo("a.example.com");
    }

    @Test
    void kindLookupsUsePreferredVersionOrTheOneAsked() {
        assertThat(mapper.mapping(new GroupKind("apps", "Deployment"))
                        .groupVersionResource()
                        .format())
                .isEqualTo("deployments.v1.apps");
        assertThat(mapper.mapping(new GroupKind("autoscaling", "HorizontalPodAutoscaler"))
                        .groupVersionKind()
                        .version())
                .isEqualTo("v2");
        assertThat(mapper.mapping(new GroupVersionKind("autoscaling", "v1", "HorizontalPodAutoscaler"))
                        .groupVersionResource()
                        .format())
                .isEqualTo("horizontalpodautoscalers.v1.autoscaling");
        assertThat(mapper.mappings(new GroupKind("autoscaling", "HorizontalPodAutoscaler")))
                .extracting(m -> m.groupVersionKind().version())
                .containsExactly("v2", "v1");
        assertThat(mapper.mapping(new GroupKind("", "Pod")).namespaced()).isTrue();
    }

    @Test
    void unknownKindIsATypedNoMatch() {
        assertThatThrownBy(() -> mapper.mapping(new GroupKind("apps", "Pod")))
                .isInstanceOf(NoMatchException.class)
                .hasMessage("no matches for kind \"Pod\" in group \"apps\"");
        assertThatThrownBy(() -> mapper.mapping(new GroupVersionKind("apps", "v1beta1", "Deployment")))
                .isInstanceOf(NoMatchException.class)
                .hasMessage("no matches for kind \"Deployment\" in version \"apps/v1beta1\"");
        assertThat(mapper.mappings(new GroupKind("apps", "Pod"))).isEmpty();
    }

    @Test
    void categoryAllExpandsInDiscoveryOrder() {
        assertThat(mapper.expandCategory("all"))
                .containsExactly(
                        new GroupResource("", "pods"),
                        new GroupResource("", "services"),
                        new GroupResource("apps", "daemonsets"),
                        new GroupResource("apps", "deployments"),
                        new GroupResource("apps", "replicasets"),
                        new GroupResource("apps", "statefulsets"),
                        new GroupResource("autoscaling", "horizontalpodautoscalers"),
                        new GroupResource("batch", "cronjobs"),
                        new GroupResource("batch", "jobs"));
        assertThat(mapper.expandCategory("api-extensions"))
                .containsExactly(new GroupResource("apiextensions.k8s.io", "customresourcedefinitions"));
        assertThat(mapper.expandCategory("nothing")).isEmpty();
    }
}
