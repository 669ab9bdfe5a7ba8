package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.http.LibraryOpenApiDocuments;
import io.kubeloop.apiserver.internal.http.OpenApiDocuments;
import io.kubeloop.apiserver.internal.registry.CustomResourceSchemas;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.schema.KubernetesRelease;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.ServedResources;
import io.kubeloop.apiserver.internal.schema.UpstreamDefinitions;
import io.kubeloop.apiserver.internal.schema.UpstreamOpenApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server publishes Kubernetes' own OpenAPI documents of its release for the built-in group versions
 * (limited to what it serves), and upstream's bodies of the shared types in the documents it writes for
 * custom resources. Compared against the files kept in the repository.
 */
class UpstreamOpenApiTest {

    private static final GroupVersion APPS = new GroupVersion("apps", "v1");
    private static final List<ServedKind> KINDS = KubectlOpenApiTest.servedKinds();

    private static Path release() {
        return UpstreamDefinitions.swagger().getParent();
    }

    private static JsonNode file(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return KubeJson.mapper().readTree(in);
        }
    }

    private static JsonNode upstreamV3(String fileName) throws IOException {
        return file(release().resolve("v3").resolve(fileName));
    }

    private static ObjectNode served(OpenApiV3.Documents docs, String path) {
        return (ObjectNode)
                KubeJson.mapper().readTree(docs.find(path).orElseThrow().json());
    }

    @Test
    void builtinGroupVersionServesTheReleasesOwnSchemasUnchanged() throws IOException {
        JsonNode upstream =
                upstreamV3("apis__apps__v1_openapi.json").path("components").path("schemas");
        ObjectNode apps = served(OpenApiV3.documents(KINDS), "apis/apps/v1");
        JsonNode schemas = apps.path("components").path("schemas");
        assertThat(schemas.propertyNames())
                .contains(
                        "io.k8s.api.apps.v1.Deployment",
                        "io.k8s.api.core.v1.PodSpec",
                        "io.k8s.api.autoscaling.v1.Scale");
        for (String name : schemas.propertyNames()) {
            assertThat(schemas.get(name)).as(name).isEqualTo(upstream.get(name));
        }
        assertThat(schemas.at("/io.k8s.api.apps.v1.DeploymentSpec/properties/replicas/description")
                        .stringValue())
                .startsWith("Number of desired pods.");
        assertThat(apps.at("/info/version").stringValue()).isEqualTo(KubernetesRelease.tag());
    }

    @Test
    void onlyThePathsOfServedResourcesAndSubresourcesArePublished() throws IOException {
        JsonNode upstream = upstreamV3("apis__apps__v1_openapi.json").path("paths");
        ObjectNode apps = served(OpenApiV3.documents(KINDS), "apis/apps/v1");
        List<String> paths = new ArrayList<>(apps.path("paths").propertyNames());
        assertThat(paths)
                .allSatisfy(p -> assertThat(upstream.has(p)).as(p).isTrue())
                .contains(
                        "/apis/apps/v1/",
                        "/apis/apps/v1/deployments",
                        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
                        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
                        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status")
                .noneMatch(p -> p.contains("statefulsets") || p.contains("replicasets"));
        for (String p : paths) {
            assertThat(apps.path("paths").get(p)).as(p).isEqualTo(upstream.get(p));
        }
        // the schemas only unserved resources need go with them
        assertThat(apps.path("components").path("schemas").has("io.k8s.api.apps.v1.StatefulSet"))
                .isFalse();
    }

    @Test
    void aSubresourceTheServerDoesNotServeIsLeftOut() {
        ServedResources served = new ServedResources(
                Map.of(GroupVersion.CORE_V1, Map.of("pods", Set.of("status", "log"), "namespaces", Set.of())));
        ObjectNode core =
                UpstreamOpenApi.groupVersion(GroupVersion.CORE_V1, served).orElseThrow();
        assertThat(core.path("paths").propertyNames())
                .contains(
                        "/api/v1/namespaces/{namespace}/pods/{name}/status",
                        "/api/v1/namespaces/{namespace}/pods/{name}/log",
                        "/api/v1/namespaces/{name}")
                .doesNotContain(
                        "/api/v1/namespaces/{namespace}/pods/{name}/exec",
                        "/api/v1/namespaces/{name}/finalize",
                        "/api/v1/namespaces/{namespace}/configmaps");
    }

    @Test
    void pathsAreClassifiedByResourceAndSubresource() {
        ServedResources served = new ServedResources(
                Map.of(GroupVersion.CORE_V1, Map.of("pods", Set.of("status")), APPS, Map.of("deployments", Set.of())));
        assertThat(UpstreamOpenApi.served("/api/v1/watch/namespaces/{namespace}/pods/{name}", served))
                .isTrue();
        assertThat(UpstreamOpenApi.served("/api/v1/pods", served)).isTrue();
        assertThat(UpstreamOpenApi.served("/api/v1/namespaces/{namespace}/pods/{name}/status", served))
                .isTrue();
        assertThat(UpstreamOpenApi.served("/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}", served))
                .isFalse();
        assertThat(UpstreamOpenApi.served("/apis/apps/", served)).isTrue();
        assertThat(UpstreamOpenApi.served("/apis/batch/", served)).isFalse();
        assertThat(UpstreamOpenApi.served("/apis/batch/v1/jobs", served)).isFalse();
        assertThat(UpstreamOpenApi.served("/api/", served)).isTrue();
        assertThat(UpstreamOpenApi.served("/version/", served)).isTrue();
        assertThat(UpstreamOpenApi.served("/logs/", served)).isFalse();
        assertThat(UpstreamOpenApi.served("/.well-known/openid-configuration/", served))
                .isFalse();
    }

    @Test
    void everyReferenceOfAServedDocumentResolvesWithinIt() {
        OpenApiV3.Documents docs = OpenApiV3.documents(KINDS);
        for (String path : List.of("api/v1", "apis/apps/v1", "apis/samplecontroller.k8s.io/v1alpha1")) {
            ObjectNode doc = served(docs, path);
            List<String> refs = new ArrayList<>();
            refs(doc, refs);
            assertThat(refs)
                    .as(path)
                    .isNotEmpty()
                    .allSatisfy(ref -> assertThat(doc.path("components")
                                    .path("schemas")
                                    .has(ref.substring("#/components/schemas/".length())))
                            .as(path + " " + ref)
                            .isTrue());
        }
    }

    @Test
    void customResourceDocumentsCarryTheReleasesObjectMeta() throws IOException {
        JsonNode upstream =
                upstreamV3("api__v1_openapi.json").path("components").path("schemas");
        ObjectNode foo = served(OpenApiV3.documents(KINDS), "apis/samplecontroller.k8s.io/v1alpha1");
        String meta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
        assertThat(foo.path("components").path("schemas").get(meta)).isEqualTo(upstream.get(meta));
        assertThat(foo.path("components").path("schemas").has("io.k8s.samplecontroller.v1alpha1.Foo"))
                .isTrue();
    }

    @Test
    void swaggerIsTheReleasesDocumentWithTheCustomResourcesAdded() throws IOException {
        JsonNode upstream = file(release().resolve("swagger.json"));
        ObjectNode v2 = OpenApiV2.document(KINDS);
        JsonNode defs = v2.path("definitions");
        for (String name : List.of(
                "io.k8s.api.apps.v1.Deployment",
                "io.k8s.api.core.v1.PodSpec",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")) {
            assertThat(defs.get(name))
                    .as(name)
                    .isEqualTo(upstream.path("definitions").get(name));
        }
        assertThat(defs.has("io.k8s.samplecontroller.v1alpha1.Foo")).isTrue();
        assertThat(defs.has("io.k8s.api.batch.v1.Job")).isFalse();
        assertThat(v2.path("paths").propertyNames())
                .contains(
                        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
                        "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/{namespace}/foos/{name}",
                        "/version/")
                .doesNotContain("/apis/batch/v1/jobs", "/logs/");
        List<String> refs = new ArrayList<>();
        refs(v2, refs);
        assertThat(refs).allSatisfy(ref -> {
            if (ref.startsWith("#/definitions/")) {
                assertThat(defs.has(ref.substring("#/definitions/".length())))
                        .as(ref)
                        .isTrue();
            } else {
                assertThat(v2.path("parameters").has(ref.substring("#/parameters/".length())))
                        .as(ref)
                        .isTrue();
            }
        });
    }

    @Test
    void theServerPublishesEveryBuiltinGroupVersionItServesFromTheRelease() throws IOException {
        OpenApiDocuments documents =
                new LibraryOpenApiDocuments(new ResourceRegistry(), CustomResourceSchemas.fromDefinitions());
        JsonNode root = KubeJson.mapper()
                .readTree(documents
                        .serve("/openapi/v3", null, "*/*")
                        .orElseThrow()
                        .body());
        assertThat(root.path("paths").propertyNames()).contains("api/v1", "apis/apps/v1", "apis/batch/v1");
        for (String gv : root.path("paths").propertyNames()) {
            String file = gv.replace("/", "__") + "_openapi.json";
            Path p = release().resolve("v3").resolve(file);
            assertThat(p).as(gv).exists();
            JsonNode served = KubeJson.mapper()
                    .readTree(documents
                            .serve("/openapi/v3/" + gv, null, "*/*")
                            .orElseThrow()
                            .body());
            JsonNode upstream = file(p);
            served.path("components")
                    .path("schemas")
                    .properties()
                    .forEach(e -> assertThat(e.getValue())
                            .as(gv + " " + e.getKey())
                            .isEqualTo(
                                    upstream.path("components").path("schemas").get(e.getKey())));
        }
        JsonNode core = KubeJson.mapper()
                .readTree(documents
                        .serve("/openapi/v3/api/v1", null, "*/*")
                        .orElseThrow()
                        .body());
        assertThat(core.path("paths").propertyNames())
                .contains("/api/v1/namespaces/{namespace}/pods/{name}/eviction")
                .doesNotContain("/api/v1/namespaces/{namespace}/replicationcontrollers");
        JsonNode pod = core.at("/components/schemas/io.k8s.api.core.v1.Pod/x-kubernetes-group-version-kind");
        assertThat(pod.toString()).isEqualTo("[{\"group\":\"\",\"kind\":\"Pod\",\"version\":\"v1\"}]");
    }

    private static void refs(JsonNode n, List<String> out) {
        if (n.isObject()) {
            JsonNode ref = n.get("$ref");
            if (ref != null && ref.isString()) {
                out.add(ref.stringValue());
            }
        }
        n.forEach(v -> refs(v, out));
    }
}
