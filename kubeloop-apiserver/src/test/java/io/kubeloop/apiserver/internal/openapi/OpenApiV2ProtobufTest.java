package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.CanonicalJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decodes {@link OpenApiV2#protobuf} with an independent wire decoder and checks it against
 * gnostic's {@code openapi.v2} field numbers (OpenAPIv2.proto).
 */
class OpenApiV2ProtobufTest {

    // openapi.v2.Document
    private static final int DOC_SWAGGER = 1;
    private static final int DOC_INFO = 2;
    private static final int DOC_PATHS = 8;
    private static final int DOC_DEFINITIONS = 9;
    private static final int DOC_PARAMETERS = 10;
    // Paths / PathItem / Operation
    private static final int PATHS_PATH = 2;
    private static final int PATH_ITEM_PATCH = 8;
    private static final int PATH_ITEM_PARAMETERS = 9;
    private static final int OP_CONSUMES = 7;
    private static final int OP_PARAMETERS = 8;
    private static final int OP_RESPONSES = 9;
    private static final int OP_EXTENSIONS = 13;
    // Schema
    private static final int SCHEMA_REF = 1;
    private static final int SCHEMA_FORMAT = 2;
    private static final int SCHEMA_DESCRIPTION = 4;
    private static final int SCHEMA_MINIMUM = 9;
    private static final int SCHEMA_UNIQUE_ITEMS = 16;
    private static final int SCHEMA_ADDITIONAL_PROPERTIES = 21;
    private static final int SCHEMA_TYPE = 22;
    private static final int SCHEMA_ITEMS = 23;
    private static final int SCHEMA_PROPERTIES = 25;
    private static final int SCHEMA_EXTENSIONS = 31;

    private static final List<ServedKind> KINDS = KubectlOpenApiTest.servedKinds();
    private static final String DEPLOYMENT_ITEM = "/apis/apps/v1/namespaces/{namespace}/deployments/{name}";

    private static ProtoMessage doc() {
        return ProtoMessage.parse(OpenApiV2.protobuf(KINDS));
    }

    private static ProtoMessage definition(ProtoMessage doc, String name) {
        return doc.message(DOC_DEFINITIONS).named(1, name);
    }

    private static ProtoMessage property(ProtoMessage schema, String name) {
        return schema.message(SCHEMA_PROPERTIES).named(1, name);
    }

    @Test
    void documentCarriesSwaggerVersionInfoPathsAndDefinitions() {
        ProtoMessage doc = doc();
        assertThat(doc.string(DOC_SWAGGER)).isEqualTo("2.0");
        assertThat(doc.message(DOC_INFO).string(1)).isEqualTo("Kubernetes");
        assertThat(doc.message(DOC_PATHS).names(PATHS_PATH))
                .contains(DEPLOYMENT_ITEM, "/api/v1/namespaces/{namespace}/configmaps");
        assertThat(doc.message(DOC_DEFINITIONS).names(1))
                .contains(
                        "io.k8s.api.apps.v1.Deployment",
                        "io.k8s.samplecontroller.v1alpha1.Foo",
                        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    }

    @Test
    void definitionsAndPathsKeepTheJsonDocumentsOrder() {
        ObjectNode json = OpenApiV2.document(KINDS);
        ProtoMessage doc = doc();
        assertThat(doc.message(DOC_DEFINITIONS).names(1))
                .containsExactlyElementsOf(json.path("definitions").propertyNames());
        assertThat(doc.message(DOC_PATHS).names(PATHS_PATH))
                .containsExactlyElementsOf(json.path("paths").propertyNames());
    }

    @Test
    void kindDefinitionCarriesItsGroupVersionKindAsYamlVendorExtension() {
        ProtoMessage deployment = definition(doc(), "io.k8s.api.apps.v1.Deployment");
        assertThat(deployment.extension(SCHEMA_EXTENSIONS, "x-kubernetes-group-version-kind"))
                .isEqualTo("- group: apps\n  kind: Deployment\n  version: v1\n");
        ProtoMessage configMap = definition(doc(), "io.k8s.api.core.v1.ConfigMap");
        assertThat(configMap.extension(SCHEMA_EXTENSIONS, "x-kubernetes-group-version-kind"))
                .isEqualTo("- group: \"\"\n  kind: ConfigMap\n  version: v1\n");
    }

    @Test
    void objectPropertiesAreReferencesAndPrimitivesHaveATypeItem() {
        ProtoMessage doc = doc();
        ProtoMessage spec = property(definition(doc, "io.k8s.api.apps.v1.Deployment"), "spec");
        assertThat(spec.string(SCHEMA_REF)).isEqualTo("#/definitions/io.k8s.api.apps.v1.DeploymentSpec");
        assertThat(spec.has(SCHEMA_TYPE)).isFalse();
        ProtoMessage replicas = property(definition(doc, "io.k8s.api.apps.v1.DeploymentSpec"), "replicas");
        assertThat(replicas.message(SCHEMA_TYPE).strings(1)).containsExactly("integer");
        assertThat(replicas.string(SCHEMA_FORMAT)).isEqualTo("int32");
    }

    @Test
    void listsHaveOneItemsSchemaAndTheirStrategicMergeKeys() {
        ProtoMessage containers = property(definition(doc(), "io.k8s.api.core.v1.PodSpec"), "containers");
        assertThat(containers.message(SCHEMA_TYPE).strings(1)).containsExactly("array");
        assertThat(containers.message(SCHEMA_ITEMS).messages(1))
                .singleElement()
                .satisfies(item ->
                        assertThat(item.string(SCHEMA_REF)).isEqualTo("#/definitions/io.k8s.api.core.v1.Container"));
        assertThat(containers.extension(SCHEMA_EXTENSIONS, "x-kubernetes-patch-merge-key"))
                .isEqualTo("name\n");
        assertThat(containers.extension(SCHEMA_EXTENSIONS, "x-kubernetes-patch-strategy"))
                .isEqualTo("merge\n");
    }

    @Test
    void mapsHaveAnAdditionalPropertiesSchema() {
        ProtoMessage data = property(definition(doc(), "io.k8s.api.core.v1.ConfigMap"), "data");
        assertThat(data.message(SCHEMA_TYPE).strings(1)).containsExactly("object");
        ProtoMessage value = data.message(SCHEMA_ADDITIONAL_PROPERTIES).message(1);
        assertThat(value.message(SCHEMA_TYPE).strings(1)).containsExactly("string");
    }

    @Test
    void customResourceSchemaKeepsDescriptionsAndBounds() {
        ProtoMessage foo = definition(doc(), "io.k8s.samplecontroller.v1alpha1.Foo");
        ProtoMessage replicas = property(property(foo, "spec"), "replicas");
        assertThat(replicas.string(SCHEMA_DESCRIPTION)).isEqualTo("How many replicas the Foo's Deployment runs.");
        assertThat(replicas.float64(SCHEMA_MINIMUM)).isEqualTo(1.0);
        assertThat(replicas.values(SCHEMA_MINIMUM))
                .singleElement()
                .satisfies(v -> assertThat(v.wireType()).isEqualTo(1));
    }

    /**
     * A parameter as written: inline ({@code ParametersItem.parameter}, 1) or, as Kubernetes' own
     * document shares most of them, a reference ({@code ParametersItem.json_reference}, 2) resolved in
     * the document's {@code parameters} (10).
     */
    private static ProtoMessage resolve(ProtoMessage doc, ProtoMessage parametersItem) {
        if (parametersItem.has(1)) {
            return parametersItem.message(1);
        }
        String ref = parametersItem.message(2).string(1);
        assertThat(ref).startsWith("#/parameters/");
        return doc.message(DOC_PARAMETERS).named(1, ref.substring("#/parameters/".length()));
    }

    @Test
    void patchOperationNamesItsKindConsumesStrategicMergeAndDeclaresFieldValidation() {
        ProtoMessage doc = doc();
        ProtoMessage item = doc.message(DOC_PATHS).named(PATHS_PATH, DEPLOYMENT_ITEM);
        ProtoMessage patch = item.message(PATH_ITEM_PATCH);
        assertThat(patch.extension(OP_EXTENSIONS, "x-kubernetes-group-version-kind"))
                .isEqualTo("group: apps\nkind: Deployment\nversion: v1\n");
        assertThat(patch.strings(OP_CONSUMES))
                .contains("application/strategic-merge-patch+json", "application/merge-patch+json");
        List<ProtoMessage> params =
                patch.messages(OP_PARAMETERS).stream().map(p -> resolve(doc, p)).toList();
        // Parameter.body_parameter (1) with its schema reference
        ProtoMessage body = params.getFirst().message(1);
        assertThat(body.string(2)).isEqualTo("body");
        assertThat(body.message(5).string(SCHEMA_REF))
                .isEqualTo("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch");
        // Parameter.non_body_parameter (2) -> query_parameter_sub_schema (3), name is field 4, type 6
        assertThat(params.stream().filter(p -> p.has(2)).map(p -> p.message(2)).filter(nb -> nb.has(3)))
                .map(nb -> nb.message(3))
                .anySatisfy(q -> {
                    assertThat(q.string(4)).isEqualTo("fieldValidation");
                    assertThat(q.string(2)).isEqualTo("query");
                    assertThat(q.string(6)).isEqualTo("string");
                });
        assertThat(patch.message(OP_RESPONSES).names(1)).contains("200", "201", "401");
    }

    @Test
    void pathParametersUsePathParameterSubSchema() {
        ProtoMessage doc = doc();
        ProtoMessage item = doc.message(DOC_PATHS).named(PATHS_PATH, DEPLOYMENT_ITEM);
        List<ProtoMessage> pathParams = item.messages(PATH_ITEM_PARAMETERS).stream()
                .map(p -> resolve(doc, p))
                .filter(p -> p.has(2))
                .map(p -> p.message(2))
                .filter(nb -> nb.has(4))
                .map(nb -> nb.message(4))
                .toList();
        // PathParameterSubSchema: required 1, in 2, name 4, type 5
        assertThat(pathParams).extracting(p -> p.string(4)).containsExactly("name", "namespace");
        assertThat(pathParams).allSatisfy(p -> {
            assertThat(p.varint(1)).isEqualTo(1);
            assertThat(p.string(2)).isEqualTo("path");
            assertThat(p.string(5)).isEqualTo("string");
        });
    }

    @Test
    void booleanAdditionalPropertiesAndProto3DefaultsFollowGnostic() {
        ObjectNode swagger = (ObjectNode) KubeJson.mapper().readTree("""
                {"swagger":"2.0","definitions":{"a":{"type":"object","additionalProperties":false,
                 "uniqueItems":false,"description":"","minimum":0,"x-flag":true}}}""");
        ProtoMessage a = ProtoMessage.parse(OpenApiV2.protobuf(swagger))
                .message(DOC_DEFINITIONS)
                .named(1, "a");
        ProtoMessage additional = a.message(SCHEMA_ADDITIONAL_PROPERTIES);
        assertThat(additional.values(2))
                .singleElement()
                .satisfies(v -> assertThat(v.number()).isZero());
        assertThat(a.has(SCHEMA_UNIQUE_ITEMS)).isFalse();
        assertThat(a.has(SCHEMA_DESCRIPTION)).isFalse();
        assertThat(a.has(SCHEMA_MINIMUM)).isFalse();
        assertThat(a.extension(SCHEMA_EXTENSIONS, "x-flag")).isEqualTo("true\n");
    }

    @Test
    void fieldsAreWrittenInFieldNumberOrder() {
        ProtoMessage doc = doc();
        assertThat(doc.fieldNumbers())
                .containsExactly(DOC_SWAGGER, DOC_INFO, DOC_PATHS, DOC_DEFINITIONS, DOC_PARAMETERS);
        ProtoMessage patch =
                doc.message(DOC_PATHS).named(PATHS_PATH, DEPLOYMENT_ITEM).message(PATH_ITEM_PATCH);
        assertThat(List.copyOf(patch.fieldNumbers())).isSorted();
    }

    @Test
    void parameterWithAnUnknownLocationIsRejected() {
        ObjectNode swagger = (ObjectNode) KubeJson.mapper().readTree("""
                {"swagger":"2.0","paths":{"/x":{"parameters":[{"name":"p","in":"cookie","type":"string"}]}}}""");
        assertThatThrownBy(() -> OpenApiV2.protobuf(swagger))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parameter p has an unknown location in: \"cookie\"");
    }

    @Test
    void servedDocumentHasStableBytesAndTheJsonEtag() {
        OpenApiV2.Document a = OpenApiV2.served(KINDS);
        OpenApiV2.Document b = OpenApiV2.served(KINDS);
        assertThat(a.protobuf()).isEqualTo(b.protobuf()).isEqualTo(OpenApiV2.protobuf(KINDS));
        assertThat(a.json()).isEqualTo(OpenApiV2.bytes(KINDS));
        assertThat(a.etag()).matches("[0-9A-F]{128}").isEqualTo(CanonicalJson.hash(a.json()));
        assertThat(a.body(OpenApiV2.PROTOBUF)).isEqualTo(a.protobuf());
        assertThat(a.body(OpenApiV2.JSON)).isEqualTo(a.json());
    }

    @Test
    void negotiationAnswersKubectlsAcceptWithTheDottedProtobufType() {
        assertThat(OpenApiV2.negotiate("application/com.github.proto-openapi.spec.v2@v1.0+protobuf"))
                .contains(OpenApiV2.PROTOBUF);
        assertThat(OpenApiV2.negotiate("application/com.github.proto-openapi.spec.v2.v1.0+protobuf"))
                .contains(OpenApiV2.PROTOBUF);
        assertThat(OpenApiV2.negotiate(
                        "application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf"))
                .contains(OpenApiV2.PROTOBUF);
    }

    @Test
    void negotiationPrefersJsonForWildcardsAndRefusesOtherTypes() {
        assertThat(OpenApiV2.negotiate(null)).contains(OpenApiV2.JSON);
        assertThat(OpenApiV2.negotiate("*/*")).contains(OpenApiV2.JSON);
        assertThat(OpenApiV2.negotiate("application/*")).contains(OpenApiV2.JSON);
        assertThat(OpenApiV2.negotiate("application/json")).contains(OpenApiV2.JSON);
        assertThat(OpenApiV2.negotiate("text/html")).isEmpty();
        assertThat(OpenApiV2.negotiate("application/json;q=0")).isEmpty();
    }
}
