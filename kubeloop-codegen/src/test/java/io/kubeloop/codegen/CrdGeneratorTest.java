package io.kubeloop.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.Condition;
import io.kubeloop.api.IntOrString;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.Description;
import io.kubeloop.api.crd.ListMapKeys;
import io.kubeloop.api.crd.ListType;
import io.kubeloop.api.crd.Pattern;
import io.kubeloop.api.crd.Required;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Java types → CRD: what hand-written types get, and the mistakes that are refused with the reason. */
class CrdGeneratorTest {

    @Kind(group = "example.com", version = "v1")
    @CustomResource(shortNames = "bk")
    record Book(String apiVersion, String kind, ObjectMeta metadata, Spec spec) implements KubernetesObject {
        enum Cover {
            @JsonProperty("hard")
            HARD,
            SOFT
        }

        record Spec(
                @Required @Description("The title.") String title,
                @JsonProperty("isbn-13") String isbn,
                @JsonIgnore String internal,
                Cover cover,
                List<@Pattern("[A-Z][a-z]+") String> authors,
                Set<Long> editions,
                Map<String, IntOrString> limits,
                JsonNode extra,
                int pages) {}
    }

    @Test
    void aHandWrittenRecordGetsAStructuralSchemaWithItsAnnotations() {
        JsonNode crd = CrdGenerator.crds(List.of(Book.class)).getFirst();
        assertThat(crd.path("metadata").path("name").asString()).isEqualTo("books.example.com");
        assertThat(crd.path("spec").path("names").path("shortNames").get(0).asString())
                .isEqualTo("bk");
        JsonNode spec = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
        assertThat(spec.path("required").get(0).asString()).isEqualTo("title");
        JsonNode p = spec.path("properties");
        assertThat(p.path("title").path("description").asString()).isEqualTo("The title.");
        assertThat(p.has("isbn-13")).isTrue();
        assertThat(p.has("internal")).isFalse();
        assertThat(p.path("cover").path("enum").toString()).isEqualTo("[\"hard\",\"SOFT\"]");
        assertThat(p.path("authors").path("items").path("pattern").asString()).isEqualTo("[A-Z][a-z]+");
        assertThat(p.path("editions").path("items").path("type").asString()).isEqualTo("integer");
        assertThat(p.path("limits")
                        .path("additionalProperties")
                        .path("x-kubernetes-int-or-string")
                        .asBoolean())
                .isTrue();
        assertThat(p.path("extra").path("x-kubernetes-preserve-unknown-fields").asBoolean())
                .isTrue();
        assertThat(p.path("pages").path("format").asString()).isEqualTo("int32");
    }

    @Kind(group = "example.com", version = "v1")
    record Workload(String apiVersion, String kind, ObjectMeta metadata, Spec spec) implements KubernetesObject {
        record Spec(Map<String, Quantity> limits, Quantity storage) {}
    }

    /** A Quantity field is what controller-gen writes for resource.Quantity: a number or a quantity string. */
    @Test
    void quantityFieldsAreANumberOrAStringOfTheQuantitySyntax() {
        JsonNode crd = CrdGenerator.crds(List.of(Workload.class)).getFirst();
        JsonNode p = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties");
        for (JsonNode q : List.of(p.path("limits").path("additionalProperties"), p.path("storage"))) {
            assertThat(q.path("anyOf").toString()).isEqualTo("[{\"type\":\"integer\"},{\"type\":\"string\"}]");
            assertThat(q.path("x-kubernetes-int-or-string").asBoolean()).isTrue();
            java.util.regex.Pattern syntax =
                    java.util.regex.Pattern.compile(q.path("pattern").asString());
            for (String valid : List.of("500m", "1.5Gi", "2", "1e3", "+.5")) {
                assertThat(syntax.matcher(valid).matches()).as(valid).isTrue();
                assertThat(Quantity.parse(valid)).isNotNull();
            }
            assertThat(syntax.matcher("1.5GB").matches()).isFalse();
        }
    }

    @Kind(group = "example.com", version = "v1")
    @CustomResource(status = true)
    record Widget(String apiVersion, String kind, ObjectMeta metadata, Status status) implements KubernetesObject {
        record Status(
                Long observedGeneration,
                @ListType("map") @ListMapKeys("type") List<Condition> conditions) {}
    }

    @Test
    void conditionsGetMetav1ConditionsSchemaAndTheListAMapByType() {
        JsonNode crd = CrdGenerator.crds(List.of(Widget.class)).getFirst();
        JsonNode conditions = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/conditions");
        assertThat(conditions.path("type").asString()).isEqualTo("array");
        assertThat(conditions.path("x-kubernetes-list-type").asString()).isEqualTo("map");
        assertThat(conditions.path("x-kubernetes-list-map-keys").toString()).isEqualTo("[\"type\"]");
        JsonNode item = conditions.path("items");
        assertThat(item.path("type").asString()).isEqualTo("object");
        assertThat(item.path("required").toString())
                .isEqualTo("[\"type\",\"status\",\"lastTransitionTime\",\"reason\",\"message\"]");
        JsonNode p = item.path("properties");
        assertThat(p.path("type").path("type").asString()).isEqualTo("string");
        assertThat(p.path("type").path("maxLength").asInt()).isEqualTo(316);
        assertThat(p.path("type").path("pattern").asString())
                .isEqualTo("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                        + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$");
        assertThat(p.path("status").path("enum").toString()).isEqualTo("[\"True\",\"False\",\"Unknown\"]");
        assertThat(p.path("observedGeneration").path("type").asString()).isEqualTo("integer");
        assertThat(p.path("observedGeneration").path("format").asString()).isEqualTo("int64");
        assertThat(p.path("observedGeneration").path("minimum").asInt()).isZero();
        assertThat(p.path("lastTransitionTime").path("type").asString()).isEqualTo("string");
        assertThat(p.path("lastTransitionTime").path("format").asString()).isEqualTo("date-time");
        assertThat(p.path("reason").path("minLength").asInt()).isEqualTo(1);
        assertThat(p.path("reason").path("maxLength").asInt()).isEqualTo(1024);
        assertThat(p.path("reason").path("pattern").asString()).isEqualTo("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
        assertThat(p.path("message").path("maxLength").asInt()).isEqualTo(32768);
        assertThat(p.path("message").path("type").asString()).isEqualTo("string");
    }

    @Test
    void aTypeWithoutKindIsRefused() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(String.class)))
                .isInstanceOf(CodegenException.class)
                .hasMessage("java.lang.String is not a kind: annotate it with @Kind and implement KubernetesObject");
    }

    @Kind(group = "core", version = "v1")
    record NoDot(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Test
    void aGroupWithoutADotIsRefused() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(NoDot.class)))
                .hasMessageContaining("a custom resource's group must be a domain name with a dot");
    }

    @Kind(group = "example.com", version = "v1", kind = "Pair")
    record PairV1(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v2", kind = "Pair")
    record PairV2(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v2", kind = "Pair")
    @CustomResource(storage = false)
    record PairV2Served(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Test
    void versionsOfOneKindMakeOneCrdWithExactlyOneStorageVersion() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(PairV1.class, PairV2.class)))
                .hasMessageContaining("must have exactly one storage version; found 2")
                .hasMessageContaining("@CustomResource(storage = false)");
        JsonNode crd =
                CrdGenerator.crds(List.of(PairV1.class, PairV2Served.class)).getFirst();
        assertThat(crd.path("spec").path("versions").size()).isEqualTo(2);
        assertThat(crd.at("/spec/versions/1/storage").asBoolean()).isFalse();
    }

    static final String UNAPPROVED = "unapproved, experimental-only; please get an approval from Kubernetes API"
            + " reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups";

    @Kind(group = "gadgets.k8s.io", version = "v1")
    @CustomResource(
            annotations = {"api-approved.kubernetes.io=" + UNAPPROVED, "example.com/empty=", "example.com/equation=a=b"
            })
    record Gadget(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "gadgets.k8s.io", version = "v2", kind = "Gadget")
    @CustomResource(storage = false, annotations = "api-approved.kubernetes.io=unapproved")
    record GadgetV2(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v1")
    @CustomResource(annotations = "no-value")
    record NoValue(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Kind(group = "example.com", version = "v1")
    @CustomResource(annotations = "Bad_Prefix.example.com/name=v")
    record BadKey(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Test
    void theCustomResourcesAnnotationsAreTheCrdsSplitAtTheFirstEqualsSign() {
        JsonNode crd = CrdGenerator.crds(List.of(Gadget.class)).getFirst();
        assertThat(crd.path("metadata").path("annotations"))
                .isEqualTo(JsonNodeFactory.instance
                        .objectNode()
                        .put("api-approved.kubernetes.io", UNAPPROVED)
                        .put("example.com/empty", "")
                        .put("example.com/equation", "a=b"));
        assertThat(CrdGenerator.yaml((ObjectNode) crd))
                .startsWith("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
                        + "  name: gadgets.gadgets.k8s.io\n  annotations:\n");
        assertThat(CrdGenerator.crds(List.of(Book.class))
                        .getFirst()
                        .path("metadata")
                        .has("annotations"))
                .isFalse();
    }

    @Test
    void versionsThatDisagreeOnTheAnnotationsOrAnAnnotationThatIsNotKeyEqualsValueAreRefused() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(Gadget.class, GadgetV2.class)))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("versions of one kind must agree on annotations");
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(NoValue.class)))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("@CustomResource annotation \"no-value\" is not key=value");
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(BadKey.class)))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("\"Bad_Prefix.example.com/name=v\" is not key=value with a qualified name");
    }

    record Node(String name, List<Node> children) {}

    @Kind(group = "example.com", version = "v1")
    record Tree(String apiVersion, String kind, ObjectMeta metadata, Node root) implements KubernetesObject {}

    @Test
    void aRecursiveTypeIsRefusedBecauseStructuralSchemasCannotRecurse() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(Tree.class)))
                .hasMessageContaining("recursive type")
                .hasMessageContaining("use JsonNode with @PreserveUnknownFields there");
    }

    @Kind(group = "example.com", version = "v1")
    record Keyed(String apiVersion, String kind, ObjectMeta metadata, Map<Integer, String> byNumber)
            implements KubernetesObject {}

    @Test
    void aMapWithNonStringKeysIsRefused() {
        assertThatThrownBy(() -> CrdGenerator.crds(List.of(Keyed.class)))
                .hasMessageContaining("map keys must be strings in a CRD schema");
    }

    @Test
    void classesNamedOnAClassPathGiveTheCrdsOfTheTypesAndAreWrittenOnePerFile(@TempDir Path dir) throws IOException {
        List<ObjectNode> byName =
                CrdGenerator.crds(System.getProperty("java.class.path"), List.of(" " + Book.class.getName() + " "));

        assertThat(byName).isEqualTo(CrdGenerator.crds(List.of(Book.class)));
        List<Path> files = CrdGenerator.write(byName, dir.resolve("crds"));
        assertThat(files).hasSize(1);
        assertThat(files.getFirst().getFileName().toString())
                .isEqualTo(byName.getFirst().path("metadata").path("name").asString() + ".yaml");
        assertThat(Files.readString(files.getFirst())).isEqualTo(CrdGenerator.yaml(byName.getFirst()));
    }

    @Test
    void aMissingClassOrClassPathEntryIsNamed(@TempDir Path dir) {
        assertThatThrownBy(() -> CrdGenerator.crds(dir.resolve("nope").toString(), List.of("a.B")))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("class path entry does not exist")
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> CrdGenerator.crds(dir.toString(), List.of("com.example.Missing")))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("cannot load class com.example.Missing from " + dir);
    }
}
