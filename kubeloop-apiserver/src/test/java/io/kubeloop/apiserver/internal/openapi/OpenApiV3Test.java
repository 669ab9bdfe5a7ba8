package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.CanonicalJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class OpenApiV3Test {

    private static final GroupVersion APPS = new GroupVersion("apps", "v1");
    private static final GroupVersionKind FOO = new GroupVersionKind("samplecontroller.k8s.io", "v1alpha1", "Foo");
    private static final List<ServedKind> KINDS = KubectlOpenApiTest.servedKinds();

    private static JsonNode patchOf(ObjectNode doc, String path) {
        return doc.path("paths").path(path).path("patch");
    }

    @Test
    void rootListsEveryGroupVersionWithItsDocumentsHash() {
        OpenApiV3.Documents docs = OpenApiV3.documents(KINDS);
        JsonNode root = KubeJson.mapper().readTree(docs.root());
        assertThat(root.path("paths").propertyNames())
                .containsExactly("api/v1", "apis/apps/v1", "apis/samplecontroller.k8s.io/v1alpha1");
        OpenApiV3.Document apps = docs.find("apis/apps/v1").orElseThrow();
        assertThat(root.at("/paths/apis~1apps~1v1/serverRelativeURL").stringValue())
                .isEqualTo("/openapi/v3/apis/apps/v1?hash=" + apps.hash());
    }

    @Test
    void theHashIsUpperHexSha512OfTheServedBytes() {
        OpenApiV3.Document apps =
                OpenApiV3.documents(KINDS).find("apis/apps/v1").orElseThrow();
        assertThat(apps.hash()).matches("[0-9A-F]{128}").isEqualTo(CanonicalJson.hash(apps.json()));
    }

    @Test
    void theSameKindsGiveTheSameBytesWhateverTheirOrder() {
        List<ServedKind> shuffled = new ArrayList<>(KINDS);
        Collections.reverse(shuffled);
        assertThat(OpenApiV3.documents(shuffled).root())
                .isEqualTo(OpenApiV3.documents(KINDS).root());
    }

    @Test
    void aChangedSchemaChangesTheHash() {
        List<ServedKind> changed = new ArrayList<>(KINDS);
        changed.set(
                3,
                ServedKind.custom(
                        FOO,
                        "foos",
                        true,
                        StructuralSchema.of(KubeJson.mapper()
                                .readTree("{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}")),
                        List.of()));
        String before = OpenApiV3.documents(KINDS)
                .find("apis/samplecontroller.k8s.io/v1alpha1")
                .orElseThrow()
                .hash();
        String after = OpenApiV3.documents(changed)
                .find("apis/samplecontroller.k8s.io/v1alpha1")
                .orElseThrow()
                .hash();
        assertThat(after).isNotEqualTo(before);
    }

    @Test
    void documentKeysAreSorted() {
        String json = new String(
                OpenApiV3.documents(KINDS).find("api/v1").orElseThrow().json(), StandardCharsets.UTF_8);
        assertThat(json).startsWith("{\"components\":{\"schemas\":{");
        assertThat(json.indexOf("\"info\""))
                .isLessThan(json.indexOf("\"openapi\""))
                .isLessThan(json.indexOf("\"paths\""));
    }

    @Test
    void patchOperationCarriesTheGvkAndAnInlineFieldValidationParameter() {
        JsonNode patch =
                patchOf(OpenApiV3.groupVersion(APPS, KINDS), "/apis/apps/v1/namespaces/{namespace}/deployments/{name}");
        assertThat(patch.path("x-kubernetes-group-version-kind").toString())
                .isEqualTo("{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}");
        assertThat(patch.path("parameters")
                        .valueStream()
                        .anyMatch(p -> p.path("name").stringValue().equals("fieldValidation")
                                && p.path("in").stringValue().equals("query")))
                .isTrue();
    }

    @Test
    void builtinPatchAcceptsStrategicMerge() {
        JsonNode patch =
                patchOf(OpenApiV3.groupVersion(APPS, KINDS), "/apis/apps/v1/namespaces/{namespace}/deployments/{name}");
        assertThat(patch.path("requestBody").path("content").propertyNames())
                .containsExactlyInAnyOrder(
                        "application/json-patch+json",
                        "application/merge-patch+json",
                        "application/apply-patch+yaml",
                        "application/strategic-merge-patch+json");
    }

    @Test
    void customResourcePatchDoesNotAcceptStrategicMerge() {
        JsonNode patch = patchOf(
                OpenApiV3.groupVersion(FOO.groupVersion(), KINDS),
                "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/{namespace}/foos/{name}");
        assertThat(patch.path("requestBody").path("content").propertyNames())
                .containsExactlyInAnyOrder(
                        "application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml");
    }

    @Test
    void kindSchemasAreNamedLikeTheRealOnesAndTaggedWithTheirGvk() {
        ObjectNode doc = OpenApiV3.groupVersion(APPS, KINDS);
        JsonNode deployment = doc.path("components").path("schemas").path("io.k8s.api.apps.v1.Deployment");
        assertThat(deployment.path("x-kubernetes-group-version-kind").toString())
                .isEqualTo("[{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}]");
        assertThat(deployment.at("/properties/spec/allOf/0/$ref").stringValue())
                .isEqualTo("#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec");
    }

    @Test
    void customResourceSchemaIsNamedByReversedGroupAndReferencesObjectMeta() {
        ObjectNode doc = OpenApiV3.groupVersion(FOO.groupVersion(), KINDS);
        JsonNode foo = doc.path("components").path("schemas").path("io.k8s.samplecontroller.v1alpha1.Foo");
        assertThat(foo.at("/properties/spec/properties/replicas/type").stringValue())
                .isEqualTo("integer");
        assertThat(foo.at("/properties/metadata/allOf/0/$ref").stringValue())
                .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        assertThat(doc.path("components").path("schemas").has("io.k8s.samplecontroller.v1alpha1.FooList"))
                .isTrue();
    }

    @Test
    void everyReferenceResolvesWithinTheDocument() {
        ObjectNode doc = OpenApiV3.groupVersion(APPS, KINDS);
        List<String> refs = new ArrayList<>();
        collectRefs(doc, refs);
        assertThat(refs)
                .isNotEmpty()
                .allSatisfy(ref -> assertThat(doc.path("components")
                                .path("schemas")
                                .has(ref.substring("#/components/schemas/".length())))
                        .as(ref)
                        .isTrue());
    }

    @Test
    void containersListCarriesItsMergeKey() {
        JsonNode containers = OpenApiV3.groupVersion(APPS, KINDS)
                .at("/components/schemas/io.k8s.api.core.v1.PodSpec/properties/containers");
        assertThat(containers.path("x-kubernetes-patch-merge-key").stringValue())
                .isEqualTo("name");
        assertThat(containers.path("x-kubernetes-patch-strategy").stringValue()).isEqualTo("merge");
    }

    @Test
    void namespacedKindsAlsoGetTheAllNamespacesList() {
        ObjectNode doc = OpenApiV3.groupVersion(APPS, KINDS);
        assertThat(doc.path("paths")
                        .path("/apis/apps/v1/deployments")
                        .path("get")
                        .path("operationId")
                        .stringValue())
                .isEqualTo("listAppsV1DeploymentForAllNamespaces");
    }

    @Test
    void subresourcesHaveTheirOwnPaths() {
        ObjectNode doc = OpenApiV3.groupVersion(APPS, KINDS);
        assertThat(doc.path("paths").has("/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status"))
                .isTrue();
        assertThat(doc.at(
                                "/paths/~1apis~1apps~1v1~1namespaces~1{namespace}~1deployments~1{name}~1scale/get/responses/200"
                                        + "/content/application~1json/schema/$ref")
                        .stringValue())
                .isEqualTo("#/components/schemas/io.k8s.api.autoscaling.v1.Scale");
    }

    @Test
    void operationsExistOnlyForServedVerbs() {
        ServedKind readOnly = new ServedKind(
                new GroupVersionKind("", "v1", "Node"),
                "nodes",
                false,
                List.of("get", "list", "watch"),
                BuiltinSchemas.forKind(new GroupVersionKind("", "v1", "Node")).orElseThrow(),
                true,
                List.of());
        JsonNode item = OpenApiV3.groupVersion(GroupVersion.CORE_V1, List.of(readOnly))
                .path("paths")
                .path("/api/v1/nodes/{name}");
        assertThat(item.has("get")).isTrue();
        assertThat(item.has("patch")).isFalse();
    }

    private static void collectRefs(JsonNode n, List<String> out) {
        if (n.isObject()) {
            n.properties().forEach(e -> {
                if (e.getKey().equals("$ref")) {
                    out.add(e.getValue().stringValue());
                } else {
                    collectRefs(e.getValue(), out);
                }
            });
        } else if (n.isArray()) {
            n.forEach(v -> collectRefs(v, out));
        }
    }
}
