package io.kubeloop.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.ObjectNode;

/**
 * CRDs of widely used projects (the fixtures under {@code real-crds/}, with their origin and
 * licence): the records generated from each compile without a warning, every example object of the
 * project survives a read into the records and a write unchanged, the CRD written back from the
 * records has the original schema (descriptions aside) for every served version, generating from it
 * again gives the same records, and the embedded API server accepts the CRD written from the records,
 * serves the project's examples under it, and {@code kubectl explain} shows its fields.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealCrdsTest {

    private final Map<String, ObjectNode> crds = new LinkedHashMap<>();
    private final Map<String, List<GeneratedSource>> sources = new LinkedHashMap<>();
    private URLClassLoader loader;
    private EmbeddedApiServer server;
    private Path kubeconfig;
    private Path workDir;

    static Stream<String> fixtures() throws IOException, URISyntaxException {
        try (Stream<Path> dirs = Files.list(root())) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList().stream();
        }
    }

    static Path root() throws URISyntaxException {
        return Path.of(
                RealCrdsTest.class.getClassLoader().getResource("real-crds").toURI());
    }

    @BeforeAll
    void generateAndCompileAll(@TempDir Path dir) throws Exception {
        workDir = dir;
        // two balanced groups of fixtures, compiled in parallel: one javac run per processor
        List<List<GeneratedSource>> groups = List.of(new ArrayList<>(), new ArrayList<>());
        long[] sizes = new long[2];
        for (String fixture : fixtures().toList()) {
            ObjectNode crd =
                    (ObjectNode) KubeYaml.readAll(root().resolve(fixture).resolve("crd.yaml"))
                            .getFirst()
                            .node();
            crds.put(fixture, crd);
            List<GeneratedSource> generated = new ModelGenerator(packageOf(fixture)).generate(crd);
            sources.put(fixture, generated);
        }
        List<List<GeneratedSource>> largestFirst = new ArrayList<>(sources.values());
        largestFirst.sort(Comparator.comparingLong(RealCrdsTest::length).reversed());
        for (List<GeneratedSource> generated : largestFirst) {
            int smaller = sizes[0] <= sizes[1] ? 0 : 1;
            groups.get(smaller).addAll(generated);
            sizes[smaller] += length(generated);
        }
        loader = Javac.compile(groups, dir);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyExampleReadIntoTheRecordsAndWrittenBackIsUnchanged(String fixture) throws Exception {
        List<Path> examples;
        try (Stream<Path> files = Files.list(root().resolve(fixture).resolve("examples"))) {
            examples = files.sorted().toList();
        }
        assertThat(examples).as("examples of " + fixture).isNotEmpty();
        for (Path example : examples) {
            JsonNode original = KubeYaml.readAll(example).getFirst().node();
            Class<?> type = kindClass(fixture, original.path("apiVersion").asString());
            Object typed = KubeJson.mapper().treeToValue(original, type);
            JsonNode written = KubeJson.mapper().valueToTree(typed);
            assertThat(Json.numbersByValue(written))
                    .as(example.getFileName().toString())
                    .isEqualTo(Json.numbersByValue(original));
        }
    }

    /**
     * The reader generated with each kind's records (its {@code JsonReader}, which Jackson uses through
     * {@code @JsonDeserialize}, and straight from the bytes through a {@code JsonBytesReader}) reads every
     * example into records equal to those Jackson's reflective binding makes of the same JSON text.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void theGeneratedReaderReadsEveryExampleAsJacksonsReflectiveBindingDoes(String fixture) throws Exception {
        JsonMapper reflective = KubeJson.mapper()
                .rebuild()
                .annotationIntrospector(new JacksonAnnotationIntrospector() {
                    private static final long serialVersionUID = 1L;

                    @Override
                    public Object findDeserializer(MapperConfig<?> config, Annotated a) {
                        return null; // no @JsonDeserialize: the records' reflective binding
                    }
                })
                .build();
        List<Path> examples;
        try (Stream<Path> files = Files.list(root().resolve(fixture).resolve("examples"))) {
            examples = files.sorted().toList();
        }
        for (Path example : examples) {
            JsonNode original = KubeYaml.readAll(example).getFirst().node();
            String json = KubeJson.mapper().writeValueAsString(original);
            Class<?> type = kindClass(fixture, original.path("apiVersion").asString());
            Object generatedReader = type.getClassLoader()
                    .loadClass(type.getName() + "$JsonReader")
                    .getConstructor()
                    .newInstance();
            JsonMapper explicit = reflective
                    .rebuild()
                    .addModule(new SimpleModule().addDeserializer(readType(type), readerOf(generatedReader)))
                    .build();
            Object byReflection = reflective.readValue(json, type);
            assertThat(explicit.readValue(json, type))
                    .as(example.getFileName().toString())
                    .isEqualTo(byReflection);
            assertThat(KubeJson.mapper().readValue(json, type))
                    .as(example.getFileName() + " through @JsonDeserialize")
                    .isEqualTo(byReflection);
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            assertThat(new JsonBytesReader(KubeJson.mapper())
                            .read(JsonBytesReader.modelOf(type).orElseThrow(), bytes, 0, bytes.length))
                    .as(example.getFileName() + " from its bytes")
                    .isEqualTo(byReflection);
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> readType(Class<?> type) {
        return (Class<Object>) type;
    }

    @SuppressWarnings("unchecked")
    private static ValueDeserializer<Object> readerOf(Object reader) {
        return (ValueDeserializer<Object>) reader;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void theCrdWrittenFromTheRecordsHasTheOriginalSchemaOfEveryServedVersion(String fixture) throws Exception {
        ObjectNode regenerated = regenerate(fixture);
        ObjectNode original = crds.get(fixture);
        assertThat(regenerated.path("spec").path("names").path("kind"))
                .isEqualTo(original.path("spec").path("names").path("kind"));
        for (JsonNode version : original.path("spec").path("versions")) {
            if (!version.path("served").asBoolean(true)) {
                continue;
            }
            JsonNode again = versionNamed(regenerated, version.path("name").asString());
            JsonNode expected = Json.normalSchema(version.path("schema").path("openAPIV3Schema"));
            JsonNode actual = Json.normalSchema(again.path("schema").path("openAPIV3Schema"));
            assertThat(Json.differences(actual, expected))
                    .as(fixture + " " + version.path("name").asString() + ": regenerated vs original")
                    .isEmpty();
            // "subresources: {}" is no subresource, as its absence is
            assertThat(again.path("subresources").isEmpty() ? 0 : again.path("subresources"))
                    .isEqualTo(version.path("subresources").isEmpty() ? 0 : version.path("subresources"));
            assertThat(Json.normalSchema(again.path("additionalPrinterColumns")))
                    .isEqualTo(Json.normalSchema(version.path("additionalPrinterColumns")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void theCrdWrittenFromTheRecordsHasTheOriginalsAnnotations(String fixture) throws Exception {
        assertThat(regenerate(fixture).path("metadata").path("annotations"))
                .isEqualTo(crds.get(fixture).path("metadata").path("annotations"));
    }

    /**
     * Nested types are named after their properties, or prefixed with the name of the record holding them
     * where that name is taken: a name ends in a digit only when its property's does ({@code oauth2}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void aNestedTypesNameEndsInADigitOnlyWhenItsPropertysNameDoes(String fixture) throws Exception {
        String crdText =
                Files.readString(root().resolve(fixture).resolve("crd.yaml")).toLowerCase(Locale.ROOT);
        for (GeneratedSource source : sources.get(fixture)) {
            List<Class<?>> nested = new ArrayList<>(List.of(loader.loadClass(source.qualifiedName())));
            for (int i = 0; i < nested.size(); i++) {
                Class<?> type = nested.get(i);
                nested.addAll(List.of(type.getDeclaredClasses()));
                String name = type.getSimpleName();
                if (Character.isDigit(name.charAt(name.length() - 1))) {
                    assertThat(crdText).as(type.getName()).containsPattern("\\b" + name.toLowerCase(Locale.ROOT) + ":");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void recordsToCrdToRecordsIsAFixedPoint(String fixture) throws Exception {
        List<GeneratedSource> again = new ModelGenerator(packageOf(fixture)).generate(regenerate(fixture));
        List<GeneratedSource> first = sources.get(fixture);
        assertThat(again).hasSameSizeAs(first);
        for (int i = 0; i < first.size(); i++) {
            assertThat(Javac.withoutJavadoc(again.get(i).source()))
                    .as(first.get(i).qualifiedName())
                    .isEqualTo(Javac.withoutJavadoc(first.get(i).source()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void theEmbeddedApiServerServesTheRegeneratedCrdAndKubectlExplainShowsItsFields(String fixture) throws Exception {
        Path kubectl = kubectl();
        ObjectNode crd = regenerate(fixture);
        String plural = crd.path("spec").path("names").path("plural").asString();
        String name = crd.path("metadata").path("name").asString();
        Path crdFile = Files.writeString(workDir.resolve(name + ".yaml"), CrdGenerator.yaml(crd));
        run(kubectl, "create", "-f", crdFile.toString());
        run(kubectl, "wait", "--for=condition=Established", "--timeout=30s", "crd/" + name);

        JsonNode storage = null;
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("storage").asBoolean()) {
                storage = version.path("schema").path("openAPIV3Schema");
            }
        }
        assertThat(storage).isNotNull();
        String field = storage.path("properties").has("spec") ? "spec" : "metadata";
        String explained = run(kubectl, "explain", plural + "." + field);
        assertThat(explained).contains("FIELDS:");
        for (String property :
                storage.path("properties").path(field).path("properties").propertyNames()) {
            assertThat(explained).as("kubectl explain " + plural + "." + field).contains(property);
        }

        try (Stream<Path> files = Files.list(root().resolve(fixture).resolve("examples"))) {
            int i = 0;
            for (Path example : files.sorted().toList()) {
                ObjectNode object =
                        (ObjectNode) KubeYaml.readAll(example).getFirst().node();
                String namespace = object.path("metadata").path("namespace").asString("");
                if (!namespace.isEmpty()) {
                    runAllowingExists(kubectl, "create", "namespace", namespace);
                }
                // examples of a project may share a name: each gets its own
                ObjectNode metadata = (ObjectNode) object.path("metadata");
                metadata.put("name", metadata.path("name").asString() + "-e" + ++i);
                Path file = Files.writeString(workDir.resolve(fixture + "-" + i + ".yaml"), KubeYaml.write(object));
                run(kubectl, "create", "-f", file.toString());
            }
        }
    }

    /**
     * The {@code status} of a {@code metav1.Condition} in a kind's status (cert-manager's Certificate, Gateway
     * API's HTTPRoute) cannot be an enum named {@code Status} inside {@code Status}: it is
     * {@code ConditionStatus}, as Go names it.
     */
    @Test
    void aConditionsStatusEnumInsideTheKindsStatusIsConditionStatus() throws Exception {
        Class<?> certificate = loader.loadClass(
                "fixtures.cert_manager_certificate.v1.Certificate$Status$Condition" + "$ConditionStatus");
        assertThat(certificate.isEnum()).isTrue();
        Class<?> route =
                loader.loadClass("fixtures.gateway_api_httproute.v1.HTTPRoute$Status$Parent$Condition$ConditionStatus");
        assertThat(route.getEnumConstants()).extracting(Object::toString).containsExactly("TRUE", "FALSE", "UNKNOWN");
    }

    private Path kubectl() {
        Path found = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                found = candidate;
                break;
            }
        }
        Assumptions.assumeTrue(
                found != null, "kubectl is not on the PATH: the API server and explain checks are skipped");
        synchronized (this) {
            if (server == null) {
                server = EmbeddedApiServer.start();
                kubeconfig = server.writeKubeconfig(workDir.resolve("kubeconfig"));
            }
        }
        return found;
    }

    private String run(Path kubectl, String... args) throws IOException, InterruptedException {
        Result r = exec(kubectl, args);
        assertThat(r.exit())
                .as("kubectl " + String.join(" ", args) + ":\n" + r.out())
                .isZero();
        return r.out();
    }

    private void runAllowingExists(Path kubectl, String... args) throws IOException, InterruptedException {
        Result r = exec(kubectl, args);
        assertThat(r.exit() == 0 || r.out().contains("AlreadyExists"))
                .as(r.out())
                .isTrue();
    }

    private record Result(int exit, String out) {}

    private Result exec(Path kubectl, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                kubectl.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                workDir.resolve("kubectl-cache").toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), out);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private ObjectNode regenerate(String fixture) throws ClassNotFoundException {
        List<Class<?>> kinds = new ArrayList<>();
        for (GeneratedSource source : sources.get(fixture)) {
            kinds.add(loader.loadClass(source.qualifiedName()));
        }
        return CrdGenerator.crds(kinds).getFirst();
    }

    private Class<?> kindClass(String fixture, String apiVersion) throws ClassNotFoundException {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        for (GeneratedSource source : sources.get(fixture)) {
            if (source.packageName().endsWith("." + version)) {
                return loader.loadClass(source.qualifiedName());
            }
        }
        throw new AssertionError("no generated version " + version + " for " + fixture);
    }

    private static JsonNode versionNamed(JsonNode crd, String name) {
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("name").asString().equals(name)) {
                return version;
            }
        }
        throw new AssertionError("no version " + name + " in the regenerated CRD");
    }

    private static long length(List<GeneratedSource> sources) {
        return sources.stream().mapToLong(s -> s.source().length()).sum();
    }

    private static String packageOf(String fixture) {
        return "fixtures." + fixture.replace('-', '_');
    }
}
