package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubeloop's jars work on the module path, as a user's modular application meets them: a tiny module
 * that requires {@code io.kubeloop.controller} compiles against the public API alone (javac refuses
 * it an internal package) and runs with {@code java --module-path … -m}, binding JSON with Jackson
 * through the packages kubeloop opens to it; a module that requires {@code io.kubeloop.testing}
 * starts the embedded API server (Jetty, TLS, protobuf) and talks to it.
 *
 * <p>The module path is this test's class path cut down to kubeloop's library modules and their
 * runtime dependencies (everything else on it, the test libraries among them, is left out).
 */
@Timeout(60)
class ModulePathSmokeTest {

    /** kubeloop's library modules, as reactor class folders or jars. */
    private static final Pattern KUBELOOP = Pattern.compile(
            ".*kubeloop-(time|api|models|codegen|client|workqueue|cache|controller|cel|apiserver|testing)([/\\\\]target[/\\\\]classes[/\\\\]?|-[0-9][^/\\\\]*\\.jar)$");

    /** Their third-party dependencies, by repository path. */
    private static final List<String> DEPENDENCIES = List.of(
            "/tools/jackson/",
            "/com/fasterxml/jackson/core/jackson-annotations/",
            "/org/snakeyaml/",
            "/org/yaml/snakeyaml/",
            "/org/bouncycastle/",
            "/org/slf4j/slf4j-api/",
            "/io/micrometer/",
            "/io/prometheus/",
            "/org/hdrhistogram/",
            "/org/latencyutils/",
            "/org/eclipse/jetty/",
            "/io/kubernetes/client-java-proto/",
            "/com/google/protobuf/protobuf-java/",
            "/com/google/guava/guava/",
            "/com/google/guava/failureaccess/",
            "/com/google/re2j/",
            "/org/antlr/antlr4-runtime/",
            "/org/threeten/threeten-extra/");

    private static final String MODULE_INFO = """
            module example.app {
                requires io.kubeloop.controller;
                requires io.kubeloop.models;
            }
            """;

    private static final String MAIN = """
            package example.app;

            import io.kubeloop.api.DynamicObject;
            import io.kubeloop.api.ObjectMeta;
            import io.kubeloop.api.json.KubeJson;
            import io.kubeloop.api.selector.LabelSelector;
            import io.kubeloop.client.KubeClient;
            import io.kubeloop.client.http.ApiRequest;
            import io.kubeloop.client.http.ApiResponse;
            import io.kubeloop.client.http.ApiTransport;
            import io.kubeloop.controller.Manager;
            import io.kubeloop.models.core.v1.ConfigMap;
            import io.kubeloop.workqueue.WorkQueue;
            import java.net.URI;
            import java.util.Map;

            public final class Main {
                public static void main(String[] args) {
                    DynamicObject d = DynamicObject.parse(
                            "{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"ConfigMap\\",\\"metadata\\":{\\"name\\":\\"cm\\","
                            + "\\"namespace\\":\\"ns\\",\\"labels\\":{\\"app\\":\\"x\\"}},\\"data\\":{\\"k\\":\\"v\\"}}");
                    ObjectMeta meta = KubeJson.mapper().treeToValue(d.node().get("metadata"), ObjectMeta.class);
                    check(meta.name().equals("cm") && d.metadata().namespace().equals("ns"), "ObjectMeta bound");
                    check(LabelSelector.parse("app=x").matches(meta.labels()), "selector");
                    ConfigMap cm = KubeJson.mapper().treeToValue(d.node(), ConfigMap.class);
                    check(cm.data().equals(Map.of("k", "v")), "model bound");
                    WorkQueue<String> queue = WorkQueue.create();
                    queue.add("key");
                    check(queue.get().orElseThrow().equals("key"), "work queue");
                    queue.shutDown();
                    ApiTransport offline = new ApiTransport() {
                        @Override
                        public URI server() {
                            return URI.create("https://127.0.0.1:6443");
                        }

                        @Override
                        public ApiResponse send(ApiRequest request) {
                            throw new UnsupportedOperationException("offline");
                        }

                        @Override
                        public void close() {
                        }
                    };
                    try (KubeClient client = KubeClient.create(offline, "default"); Manager manager = Manager.create(client)) {
                        check(manager.meterRegistry() != null, "manager");
                    }
                    Module clientModule = KubeClient.class.getModule();
                    check(clientModule.isNamed() && clientModule.getName().equals("io.kubeloop.client"), "named module");
                    check(!clientModule.isExported("io.kubeloop.client.internal.http"), "internal package hidden");
                    System.out.println("module path ok");
                }

                private static void check(boolean ok, String what) {
                    if (!ok) {
                        throw new AssertionError(what);
                    }
                }
            }
            """;

    private static final String TESTING_MODULE_INFO = """
            module example.app {
                requires io.kubeloop.testing;
                requires io.kubeloop.models;
            }
            """;

    private static final String SERVER_MAIN = """
            package example.app;

            import io.kubeloop.api.DynamicObject;
            import io.kubeloop.api.GroupVersionResource;
            import io.kubeloop.api.ResourceScope;
            import io.kubeloop.api.errors.InvalidException;
            import io.kubeloop.api.errors.NotFoundException;
            import io.kubeloop.apiserver.EmbeddedApiServer;
            import io.kubeloop.client.ResourceClient;
            import io.kubeloop.models.core.v1.ConfigMap;
            import io.kubeloop.time.testing.FakeTicker;
            import java.time.Duration;
            import java.util.Map;

            public final class Main {
                public static void main(String[] args) {
                    FakeTicker ticker = new FakeTicker();
                    long before = ticker.nanoTime();
                    ticker.step(Duration.ofSeconds(1));
                    check(ticker.nanoTime() - before == 1_000_000_000L, "fake clock");
                    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
                        ResourceClient<ConfigMap> configMaps =
                                server.client().resource(ConfigMap.class).inNamespace("default");
                        configMaps.create(ConfigMap.builder().metadata(m -> m.name("cm")).data(Map.of("k", "v")).build());
                        check(configMaps.get("cm").data().equals(Map.of("k", "v")), "round trip");
                        check(configMaps.list().items().size() == 1, "list");
                        celRule(server);
                    }
                    check(!EmbeddedApiServer.class.getModule().isExported("io.kubeloop.apiserver.internal.http"),
                            "internal package hidden");
                    System.out.println("module path ok");
                }

                /** A CRD validation rule compiles and refuses an object: CEL runs on the module path. */
                private static void celRule(EmbeddedApiServer server) {
                    server.client()
                            .resource(
                                    new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
                                    ResourceScope.CLUSTER,
                                    DynamicObject.class)
                            .create(DynamicObject.parse(("{'apiVersion':'apiextensions.k8s.io/v1',"
                                    + "'kind':'CustomResourceDefinition','metadata':{'name':'dials.example.com'},"
                                    + "'spec':{'group':'example.com','scope':'Namespaced',"
                                    + "'names':{'kind':'Dial','plural':'dials'},"
                                    + "'versions':[{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':"
                                    + "{'type':'object','properties':{'spec':{'type':'object',"
                                    + "'properties':{'size':{'type':'integer'}},"
                                    + "'x-kubernetes-validations':[{'rule':'self.size < 10'}]}}}}}]}}")
                                    .replace('\\'', '"')));
                    ResourceClient<DynamicObject> dials = server.client()
                            .resource(new GroupVersionResource("example.com", "v1", "dials"), ResourceScope.NAMESPACED,
                                    DynamicObject.class)
                            .inNamespace("default");
                    DynamicObject dial = DynamicObject.parse(
                            "{\\"apiVersion\\":\\"example.com/v1\\",\\"kind\\":\\"Dial\\","
                                    + "\\"metadata\\":{\\"name\\":\\"d\\"},\\"spec\\":{\\"size\\":12}}");
                    for (int attempt = 0; ; attempt++) {
                        try {
                            dials.create(dial);
                            throw new AssertionError("the rule did not refuse the Dial");
                        } catch (InvalidException e) {
                            check(e.getMessage().contains("failed rule: self.size < 10"), "CEL rule: " + e.getMessage());
                            return;
                        } catch (NotFoundException e) {
                            check(attempt < 100, "the CRD was not served in time");
                            try {
                                Thread.sleep(50);
                            } catch (InterruptedException ie) {
                                throw new AssertionError(ie);
                            }
                        }
                    }
                }

                private static void check(boolean ok, String what) {
                    if (!ok) {
                        throw new AssertionError(what);
                    }
                }
            }
            """;

    private static final String REACHES_INSIDE = """
            package example.app;

            public final class Main {
                public static void main(String[] args) {
                    System.out.println(io.kubeloop.client.internal.http.DefaultApiTransport.class);
                }
            }
            """;

    @Test
    void aModularApplicationCompilesAgainstThePublicApiAndRunsOnTheModulePath(@TempDir Path dir)
            throws IOException, InterruptedException {
        compileAndRun(dir, MODULE_INFO, MAIN);
    }

    private static void compileAndRun(Path dir, String moduleInfo, String main)
            throws IOException, InterruptedException {
        String modulePath = modulePath();
        Path src = writeModule(dir.resolve("src"), moduleInfo, main);
        Path out = dir.resolve("out");
        Compilation compiled = javac(modulePath, src, out);
        assertThat(compiled.exitCode()).as(compiled.output()).isZero();

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java,
                        "--module-path",
                        out + File.pathSeparator + modulePath,
                        "-m",
                        "example.app/example.app.Main")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("module path ok");
    }

    @Test
    void aModularTestStartsTheEmbeddedApiServerOnTheModulePath(@TempDir Path dir)
            throws IOException, InterruptedException {
        compileAndRun(dir, TESTING_MODULE_INFO, SERVER_MAIN);
    }

    @Test
    void theCompilerRefusesAnInternalPackage(@TempDir Path dir) throws IOException {
        Path src = writeModule(dir.resolve("src"), MODULE_INFO, REACHES_INSIDE);
        Compilation compiled = javac(modulePath(), src, dir.resolve("out"));
        assertThat(compiled.exitCode()).isNotZero();
        assertThat(compiled.output())
                .contains("io.kubeloop.client.internal.http")
                .contains("not visible");
    }

    private record Compilation(int exitCode, String output) {}

    private static Compilation javac(String modulePath, Path src, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(
                List.of("-d", out.toString(), "--module-path", modulePath, "-Xlint:-requires-automatic"));
        try (var files = Files.walk(src)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        int exit = javac.run(null, buffer, buffer, args.toArray(String[]::new));
        return new Compilation(exit, buffer.toString(StandardCharsets.UTF_8));
    }

    private static Path writeModule(Path src, String moduleInfo, String main) throws IOException {
        Files.createDirectories(src.resolve("example/app"));
        Files.writeString(src.resolve("module-info.java"), moduleInfo);
        Files.writeString(src.resolve("example/app/Main.java"), main);
        return src;
    }

    private static String modulePath() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Arrays.stream(classPath.split(Pattern.quote(File.pathSeparator)))
                .filter(e -> KUBELOOP.matcher(e).matches()
                        || DEPENDENCIES.stream()
                                .anyMatch(d -> e.replace('\\', '/').contains(d)))
                .collect(Collectors.toList());
        assertThat(entries).as(classPath).anyMatch(e -> e.contains("kubeloop-controller"));
        return String.join(File.pathSeparator, entries);
    }
}
