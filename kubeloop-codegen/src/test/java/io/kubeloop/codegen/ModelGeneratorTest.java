package io.kubeloop.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.json.ModelDeserializer;
import io.kubeloop.api.yaml.KubeYaml;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * CRD → records → CRD on a CRD that uses every schema feature the generators map (the fixture
 * {@code features/crd.yaml}): the records compile without a warning, an example object survives a
 * read and write unchanged, the CRD written from the records has the original's schema, names,
 * versions, subresources and printer columns, and generating again gives the same source.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelGeneratorTest {

    private ObjectNode crd;
    private List<GeneratedSource> sources;
    private URLClassLoader loader;

    @BeforeAll
    void generateAndCompile(@TempDir Path dir) throws IOException {
        crd = KubeYaml.readAll(resource("features/crd.yaml")).getFirst().node();
        sources = new ModelGenerator("com.example.widgets").generate(crd);
        List<GeneratedSource> withUsage = new ArrayList<>(sources);
        withUsage.add(new GeneratedSource("com.example.usage", "Usage", """
                package com.example.usage;

                import com.example.widgets.v1.Widget;
                import io.kubeloop.api.IntOrString;
                import java.util.List;

                public final class Usage {
                    private Usage() {}

                    public static Widget widget() {
                        return Widget.of("default", "w")
                                .withSpec(Widget.Spec.create() // create(): the spec has a field named empty
                                        .withReplicas(3)
                                        .withMode(Widget.Spec.Mode.IF_NOT_PRESENT)
                                        .withPort(IntOrString.of("http"))
                                        .withPorts(List.of(Widget.Spec.Port.empty().withName("http").withNumber(80))));
                    }
                }
                """));
        loader = Javac.compile(withUsage, dir);
    }

    @Test
    void oneRecordPerServedVersionInAPackagePerVersion() {
        assertThat(sources)
                .extracting(GeneratedSource::qualifiedName)
                .containsExactly("com.example.widgets.v1beta1.Widget", "com.example.widgets.v1.Widget");
    }

    @Test
    void theKindsRecordCarriesItsGroupVersionKindPluralAndTheCrdsNames() {
        String v1 = source("com.example.widgets.v1.Widget");
        assertThat(v1)
                .contains("@Kind(group = \"example.com\", version = \"v1\", plural = \"widgets\")")
                .contains("@CustomResource(shortNames = \"wd\", categories = {\"all\", \"example\"}, status = true,"
                        + " scale = @Scale(specReplicasPath = \".spec.replicas\", statusReplicasPath ="
                        + " \".status.replicas\", labelSelectorPath = \".status.selector\"))")
                .contains("public record Widget(")
                .contains("implements KubernetesObject");
        assertThat(source("com.example.widgets.v1beta1.Widget"))
                .contains("storage = false, deprecated = true, deprecationWarning =");
    }

    @Test
    void namesThatAreNotJavaIdentifiersAreMappedAndKeepTheirJsonNames() {
        String v1 = source("com.example.widgets.v1.Widget");
        assertThat(v1)
                .contains("@JsonProperty(\"class\") String class_")
                .contains("@JsonProperty(\"default\") String default_")
                .contains("@JsonProperty(\"x-kubernetes-thing\") String xKubernetesThing")
                .contains("@JsonProperty(\"dotted.name\") String dottedName")
                .contains("@JsonProperty(\"$ref\") String ref")
                .contains("String ref2")
                .contains("@JsonProperty(\"Ref\") String ref3")
                .contains("@JsonProperty(\"hashCode\") String hashCode_")
                .contains("@JsonProperty(\"9lives\") String _9lives")
                // nested types that would shadow a type the code uses get a suffix
                .contains("ListValue list")
                .contains("record ListValue(")
                .contains("@JsonProperty(\"with space\")\n            WITH_SPACE")
                .contains("ALWAYS_2");
    }

    @Test
    void descriptionsBecomeJavadocThatCannotBreakTheComment() {
        String v1 = source("com.example.widgets.v1.Widget");
        assertThat(v1)
                .contains("A Widget is &lt;b&gt;made&lt;/b&gt; of parts &amp; has a *&#47; comment end and &#64;tags"
                        + " and &#92;u0041 escapes.")
                .contains("@param replicas How many.");
    }

    @Test
    void anExampleObjectReadIntoTheRecordsAndWrittenBackIsUnchanged() throws Exception {
        Class<?> widget = loader.loadClass("com.example.widgets.v1.Widget");
        JsonNode original =
                KubeYaml.readAll(resource("features/example.yaml")).getFirst().node();
        Object typed = KubeJson.mapper().treeToValue(original, widget);
        JsonNode written = KubeJson.mapper().valueToTree(typed);
        assertThat(Json.numbersByValue(written)).isEqualTo(Json.numbersByValue(original));
        // and the typed object is what it says
        assertThat(typed.toString())
                .contains("replicas=3")
                .contains("mode=EMPTY")
                .contains("port=http");
    }

    @Test
    void unknownFieldsUnderAPreservingObjectAreKeptOnTheRoundTrip() throws Exception {
        Class<?> widget = loader.loadClass("com.example.widgets.v1.Widget");
        JsonNode original =
                KubeYaml.readAll(resource("features/example.yaml")).getFirst().node();
        JsonNode written = KubeJson.mapper().valueToTree(KubeJson.mapper().treeToValue(original, widget));
        JsonNode childSpec = written.path("spec").path("child").path("spec");
        assertThat(childSpec.path("unknown").asString()).isEqualTo("u");
        assertThat(childSpec.path("nested").path("deep").size()).isEqualTo(2);
    }

    @Test
    void theBuilderStyleExpressionBuildsTheObjectItSays() throws Exception {
        Object widget =
                loader.loadClass("com.example.usage.Usage").getMethod("widget").invoke(null);
        JsonNode json = KubeJson.mapper().valueToTree(widget);
        JsonNode expected = KubeJson.mapper().readTree("""
                {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},
                 "spec":{"replicas":3,"mode":"IfNotPresent","port":"http","ports":[{"name":"http","number":80}]}}
                """);
        assertThat(json).isEqualTo(expected);
    }

    @Test
    void theCrdWrittenFromTheRecordsHasTheOriginalSchemaNamesVersionsAndSubresources() throws Exception {
        List<Class<?>> kinds = List.of(
                loader.loadClass("com.example.widgets.v1beta1.Widget"),
                loader.loadClass("com.example.widgets.v1.Widget"));
        ObjectNode regenerated = CrdGenerator.crds(kinds).getFirst();
        assertThat(regenerated.path("metadata").path("name").asString()).isEqualTo("widgets.example.com");
        JsonNode spec = regenerated.path("spec");
        JsonNode originalSpec = crd.path("spec");
        assertThat(spec.path("names")).isEqualTo(originalSpec.path("names"));
        assertThat(spec.path("scope")).isEqualTo(originalSpec.path("scope"));
        assertThat(spec.path("versions").size()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            ObjectNode version = (ObjectNode) spec.path("versions").get(i).deepCopy();
            ObjectNode originalVersion =
                    (ObjectNode) originalSpec.path("versions").get(i).deepCopy();
            JsonNode schema = version.remove("schema").path("openAPIV3Schema");
            JsonNode originalSchema = originalVersion.remove("schema").path("openAPIV3Schema");
            assertThat(Json.normalSchema(schema)).isEqualTo(Json.normalSchema(originalSchema));
            assertThat(Json.numbersByValue(version)).isEqualTo(Json.numbersByValue(originalVersion));
        }
    }

    @Test
    void generatingFromTheRegeneratedCrdGivesTheSameSources() throws Exception {
        List<Class<?>> kinds = List.of(
                loader.loadClass("com.example.widgets.v1beta1.Widget"),
                loader.loadClass("com.example.widgets.v1.Widget"));
        ObjectNode regenerated = CrdGenerator.crds(kinds).getFirst();
        List<GeneratedSource> again = new ModelGenerator("com.example.widgets").generate(regenerated);
        assertThat(again).hasSameSizeAs(sources);
        for (int i = 0; i < sources.size(); i++) {
            assertThat(Javac.withoutJavadoc(again.get(i).source()))
                    .isEqualTo(Javac.withoutJavadoc(sources.get(i).source()));
        }
    }

    /**
     * Nested records are read through one dispatching class nested in the kind's JsonReader; a kind (and a
     * nested record) named like that class still compiles, and both JSON paths read every nested record.
     */
    @Test
    void aKindNamedLikeTheNestedReadersClassCompilesAndReadsItsNestedRecords(@TempDir Path dir) throws Exception {
        ObjectNode nestedCrd = KubeYaml.readAll("""
                        apiVersion: apiextensions.k8s.io/v1
                        kind: CustomResourceDefinition
                        metadata:
                          name: nesteds.example.com
                        spec:
                          group: example.com
                          names: {kind: Nested, plural: nesteds}
                          scope: Namespaced
                          versions:
                          - name: v1
                            served: true
                            storage: true
                            schema:
                              openAPIV3Schema:
                                type: object
                                properties:
                                  spec:
                                    type: object
                                    properties:
                                      nested:
                                        type: object
                                        properties:
                                          value: {type: string}
                                      rules:
                                        type: array
                                        items:
                                          type: object
                                          properties:
                                            nested:
                                              type: object
                                              properties:
                                                depth: {type: integer}
                                      free:
                                        type: object
                                        x-kubernetes-preserve-unknown-fields: true
                                        properties:
                                          known: {type: string}
                                      holder:
                                        type: object
                                        properties:
                                          tree: {x-kubernetes-preserve-unknown-fields: true}
                                      endpoint:
                                        type: object
                                        description: Where the spec points.
                                        properties:
                                          host: {type: string, description: The host.}
                                          port: {type: integer}
                                  status:
                                    type: object
                                    properties:
                                      observed:
                                        type: object
                                        properties:
                                          endpoint:
                                            type: object
                                            description: Where it pointed when last seen.
                                            properties:
                                              host: {type: string, description: The host it had.}
                                              port: {type: integer}
                                          other:
                                            type: object
                                            properties:
                                              host: {type: string}
                                              port: {type: integer, minimum: 1}
                        """).getFirst().node();
        List<GeneratedSource> generated = new ModelGenerator("com.example.nested").generate(nestedCrd);
        String source = generated.getFirst().source();
        assertThat(source).contains("JsonReader.NestedRecords.table(");
        // every nested record is read asking the byte reader to share equal ones (it does not share one
        // that keeps unknown fields or holds a JSON object)
        assertThat(source)
                .contains("nested = in.sharedRecord(READERS, ")
                .containsPattern("rules = in.list\\(Rule.class, e\\d+ -> e\\d+.sharedRecord\\(READERS, ")
                .contains("free = in.sharedRecord(READERS, ")
                .doesNotContain(".record(READERS, ");
        // an object schema used in several places (descriptions aside) is one record, declared at its
        // shallowest place; one that differs in anything else is its own
        assertThat(source)
                .contains("Nested.Spec.Endpoint endpoint")
                .contains("record Other(")
                .doesNotContain("record Endpoint2(");
        assertThat(source.split("record Endpoint\\(", -1)).hasSize(2);
        try (URLClassLoader classes = Javac.compile(generated, dir)) {
            Class<?> kind = classes.loadClass("com.example.nested.v1.Nested");
            String json = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Nested\",\"metadata\":{\"name\":\"n\"},"
                    + "\"spec\":{\"nested\":{\"value\":\"v\"},\"rules\":[{\"nested\":{\"depth\":2}}],"
                    + "\"endpoint\":{\"host\":\"h\",\"port\":1}},"
                    + "\"status\":{\"observed\":{\"endpoint\":{\"host\":\"h\",\"port\":1}}}}";
            Object parsed = KubeJson.mapper().readValue(json, kind);
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            Object fromBytes = new JsonBytesReader(KubeJson.mapper()
                            .rebuild()
                            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                            .build())
                    .read(readerOf(kind), bytes, 0, bytes.length);
            assertThat(parsed.toString()).contains("value=v").contains("depth=2");
            assertThat(fromBytes).isEqualTo(parsed);
            Object spec = kind.getMethod("spec").invoke(fromBytes);
            Object status = kind.getMethod("status").invoke(fromBytes);
            Object observed = status.getClass().getMethod("observed").invoke(status);
            Object endpoint = spec.getClass().getMethod("endpoint").invoke(spec);
            assertThat(observed.getClass().getMethod("endpoint").invoke(observed))
                    .as("equal bytes, one record type: one instance")
                    .isSameAs(endpoint);
            assertThat(Json.numbersByValue(KubeJson.mapper().valueToTree(parsed)))
                    .isEqualTo(Json.numbersByValue(KubeJson.mapper().readTree(json)));
        }
    }

    /** A {@code metav1.Condition}, as controller-gen writes its schema. */
    private static final String CONDITION = """
            type: object
            required: [lastTransitionTime, message, reason, status, type]
            properties:
              lastTransitionTime: {type: string, format: date-time}
              message: {type: string, maxLength: 32768}
              observedGeneration: {type: integer, format: int64, minimum: 0}
              reason: {type: string, maxLength: 1024, minLength: 1}
              status: {type: string, enum: ["True", "False", Unknown]}
              type: {type: string, maxLength: 316}
            """;

    /**
     * A nested type is named after its property (a list's items after its singular), unless Java forbids the
     * name (an enclosing type has it) or another nested type of the record has it: then it is prefixed with
     * the name of the record holding it, as Go names {@code metav1.ConditionStatus}; a list's items beside an
     * object property of their singular's name are its {@code …Item}. No name gets a number.
     */
    @Test
    void nestedTypesAreNamedAfterTheirPropertyOrPrefixedWithTheirHoldersName(@TempDir Path dir) throws Exception {
        ObjectNode probeCrd = KubeYaml.readAll(
                        """
                        apiVersion: apiextensions.k8s.io/v1
                        kind: CustomResourceDefinition
                        metadata:
                          name: probes.example.com
                        spec:
                          group: example.com
                          names: {kind: Probe, plural: probes}
                          scope: Namespaced
                          versions:
                          - name: v1
                            served: true
                            storage: true
                            schema:
                              openAPIV3Schema:
                                type: object
                                properties:
                                  spec:
                                    type: object
                                    properties:
                                      checks:
                                        type: array
                                        items:
                                          type: object
                                          properties:
                                            name: {type: string}
                                            status: {type: string, enum: [Pass, Fail]}
                                      probe:
                                        type: object
                                        properties:
                                          path: {type: string}
                                      mirror:
                                        type: object
                                        properties:
                                          host: {type: string}
                                      mirrors:
                                        type: array
                                        items:
                                          type: object
                                          properties:
                                            host: {type: string}
                                            percent: {type: integer}
                                      port: {type: integer}
                                      ports:
                                        type: array
                                        items:
                                          type: object
                                          properties:
                                            number: {type: integer}
                                  status:
                                    type: object
                                    properties:
                                      conditions:
                                        type: array
                                        items:
                        %s
                        """.formatted(CONDITION.indent(24).stripTrailing()))
                .getFirst()
                .node();
        List<GeneratedSource> generated = new ModelGenerator("com.example.probes").generate(probeCrd);
        String source = generated.getFirst().source();
        assertThat(source).doesNotContainPattern("(record|enum) [A-Za-z]+\\d");
        List<GeneratedSource> withUsage = new ArrayList<>(generated);
        withUsage.add(new GeneratedSource("com.example.usage", "ProbeUsage", """
                package com.example.usage;

                import com.example.probes.v1.Probe;
                import java.util.List;

                public final class ProbeUsage {
                    private ProbeUsage() {}

                    public static Probe probe() {
                        return Probe.of("default", "p")
                                .withSpec(Probe.Spec.empty()
                                        .withChecks(List.of(Probe.Spec.Check.empty().withStatus(Probe.Spec.Check.Status.PASS)))
                                        .withProbe(Probe.Spec.SpecProbe.empty().withPath("/healthz"))
                                        .withMirror(Probe.Spec.Mirror.empty().withHost("a"))
                                        .withMirrors(List.of(Probe.Spec.MirrorsItem.empty().withHost("b")))
                                        .withPort(80L)
                                        .withPorts(List.of(Probe.Spec.Port.empty().withNumber(8080L))))
                                .withStatus(Probe.Status.empty()
                                        .withConditions(List.of(Probe.Status.Condition.empty()
                                                .withType("Ready")
                                                .withStatus(Probe.Status.Condition.ConditionStatus.TRUE))));
                    }
                }
                """));
        try (URLClassLoader classes = Javac.compile(withUsage, dir)) {
            Object probe = classes.loadClass("com.example.usage.ProbeUsage")
                    .getMethod("probe")
                    .invoke(null);
            JsonNode json = KubeJson.mapper().valueToTree(probe);
            assertThat(json.at("/status/conditions/0/status").asString()).isEqualTo("True");
            assertThat(json.at("/spec/checks/0/status").asString()).isEqualTo("Pass");
        }
    }

    @Test
    void theCrdsAnnotationsButKubectlsLastAppliedConfigurationGoIntoCustomResource() {
        ObjectNode annotated = crd.deepCopy();
        ((ObjectNode) annotated.path("metadata"))
                .putObject("annotations")
                .put("api-approved.kubernetes.io", "https://github.com/kubernetes/enhancements/pull/1111")
                .put("kubectl.kubernetes.io/last-applied-configuration", "{\"kind\":\"CustomResourceDefinition\"}")
                .put("example.com/quoted", "say \"hi\"\n");
        String source = new ModelGenerator("com.example.widgets")
                .generate(annotated)
                .getLast()
                .source();
        assertThat(source)
                .contains("@CustomResource(shortNames = \"wd\", categories = {\"all\", \"example\"}, annotations ="
                        + " {\"api-approved.kubernetes.io=https://github.com/kubernetes/enhancements/pull/1111\","
                        + " \"example.com/quoted=say \\\"hi\\\"\\n\"}, status = true,")
                .doesNotContain("last-applied-configuration");
    }

    @SuppressWarnings("unchecked")
    private static <T> ModelDeserializer<T> readerOf(Class<?> kind) {
        return (ModelDeserializer<T>) JsonBytesReader.modelOf(kind).orElseThrow();
    }

    @Test
    void aCrdThatIsNotV1OrHasNoCrdIsRefusedWithTheReason() {
        ModelGenerator generator = new ModelGenerator("com.example");
        assertThatThrownBy(() -> generator.generate(List.of(DynamicObject.parse(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}}"))))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("no apiextensions.k8s.io/v1 CustomResourceDefinition");
        ObjectNode beta = crd.deepCopy().put("apiVersion", "apiextensions.k8s.io/v1beta1");
        assertThatThrownBy(() -> generator.generate(beta))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("only apiextensions.k8s.io/v1 is read");
        assertThatThrownBy(() -> new ModelGenerator("com.example-x")).hasMessageContaining("not a Java package name");
    }

    private String source(String qualifiedName) {
        return sources.stream()
                .filter(s -> s.qualifiedName().equals(qualifiedName))
                .findFirst()
                .orElseThrow()
                .source();
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ModelGeneratorTest.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
