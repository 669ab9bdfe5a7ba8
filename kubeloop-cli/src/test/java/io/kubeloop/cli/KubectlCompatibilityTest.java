package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real kubectl binaries (kubectl.1.27 … kubectl.1.33 beside the kubectl on the PATH) against the
 * embedded server started with the CLI's options. Every test runs with 1.27 and 1.33; the cheap ones
 * ({@link #allVersions()}) with every installed version. A missing version skips with a message naming
 * it; a server feature that is not there yet (see {@link ServerFeatures}) skips the tests that need it,
 * which turn on by themselves once the feature lands.
 */
class KubectlCompatibilityTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Path kubeconfig;
    static ServerFeatures features;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServeCommand.baseOptions());
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        createNamespace("probes");
        features = ServerFeatures.probe(server.client(), "probes");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** The full suite's versions: the oldest and newest supported. */
    static Stream<String> fullVersions() {
        return Stream.of("1.27", "1.33");
    }

    /** Every supported version, for the short smoke tests. */
    static Stream<String> allVersions() {
        return Stream.of("1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33");
    }

    private static void createNamespace(String name) {
        try {
            server.client()
                    .resource("namespaces")
                    .create(DynamicObject.parse(
                            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}"));
        } catch (AlreadyExistsException exists) {
            // another test of the same version made it
        }
    }

    /** kubectl {@code version} in its own namespace {@code kc-1-NN}. */
    private static Kubectl kubectl(String version) {
        String ns = "kc-" + version.replace('.', '-');
        Kubectl k = Kubectl.of(version, kubeconfig, dir, ns);
        createNamespace(ns);
        return k;
    }

    private static ResourceClient<DynamicObject> in(Kubectl k, String resource) {
        return server.client().resource(resource).inNamespace(k.namespace());
    }

    static String configMap(String name, String data) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":" + data
                + "}";
    }

    static String deployment(String name, String image) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},
                 "spec":{"replicas":1,"selector":{"matchLabels":{"app":"%s"}},
                  "template":{"metadata":{"labels":{"app":"%s"}},
                   "spec":{"containers":[{"name":"main","image":"%s"}]}}}}""".formatted(name, name, name, image);
    }

    private static Kubectl.Result ok(Kubectl.Result r) {
        assertThat(r.exit()).as(r.out()).isZero();
        return r;
    }

    // ---- every version -------------------------------------------------------------------------

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("allVersions")
    void apiResourcesListsBuiltInsWithShortNamesAndScope(String version) {
        Kubectl k = kubectl(version);
        String table = ok(k.run("api-resources")).out();
        assertThat(table.lines().findFirst().orElseThrow()).matches("NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND");
        assertThat(table)
                .containsPattern("configmaps +cm +v1 +true +ConfigMap")
                .containsPattern("deployments +deploy +apps/v1 +true +Deployment")
                .containsPattern("leases +coordination.k8s.io/v1 +true +Lease");
        assertThat(ok(k.run("api-resources", "--namespaced=false", "-o", "name"))
                        .out()
                        .lines())
                .contains("namespaces", "nodes", "customresourcedefinitions.apiextensions.k8s.io");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("allVersions")
    void apiVersionsListsEveryServedGroupVersion(String version) {
        assertThat(ok(kubectl(version).run("api-versions")).out().lines())
                .contains("v1", "apps/v1", "batch/v1", "coordination.k8s.io/v1", "apiextensions.k8s.io/v1");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("allVersions")
    void getPrintsJsonAndNameOfAnObject(String version) {
        Kubectl k = kubectl(version);
        in(k, "configmaps").create(DynamicObject.parse(configMap("smoke", "{\"k\":\"v\"}")));
        DynamicObject json = DynamicObject.parse(
                ok(k.run("get", "configmap", "smoke", "-o", "json")).out());
        assertThat(json.metadata().name()).isEqualTo("smoke");
        assertThat(json.at("/data/k"))
                .hasValueSatisfying(v -> assertThat(v.asString()).isEqualTo("v"));
        assertThat(ok(k.run("get", "cm", "smoke", "-o", "name")).out()).isEqualTo("configmap/smoke\n");
    }

    // ---- 1.27 and 1.33 -------------------------------------------------------------------------

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void getRawReturnsTheServersJson(String version) {
        Kubectl k = kubectl(version);
        assertThat(ok(k.run("get", "--raw", "/api/v1/namespaces/" + k.namespace()))
                        .out())
                .contains("\"kind\":\"Namespace\"", "\"name\":\"" + k.namespace() + "\"");
        assertThat(ok(k.run("get", "--raw", "/version")).out()).contains("\"gitVersion\"");
        Kubectl.Result missing = k.run("get", "--raw", "/api/v1/namespaces/does-not-exist");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.out()).contains("NotFound");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void getPrintsTablesWideYamlAndFiltersByLabel(String version) {
        Kubectl k = kubectl(version);
        in(k, "configmaps").create(DynamicObject.parse("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"shown","labels":{"tier":"web"}},"data":{"a":"1","b":"2"}}"""));
        in(k, "configmaps").create(DynamicObject.parse(configMap("hidden", "{}")));
        List<String> table =
                ok(k.run("get", "configmaps", "-l", "tier=web")).out().lines().toList();
        assertThat(table).hasSize(2);
        assertThat(table.get(0)).matches("NAME +DATA +AGE");
        assertThat(table.get(1)).matches("shown +2 +\\d+s");
        assertThat(ok(k.run("get", "configmap", "shown", "-o", "yaml")).out())
                .contains("kind: ConfigMap", "  name: shown", "    tier: web", "  a: \"1\"");
        in(k, "pods").create(DynamicObject.parse("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"wide"},
                 "spec":{"containers":[{"name":"c","image":"busybox"}]}}"""));
        List<String> wide =
                ok(k.run("get", "pod", "wide", "-o", "wide")).out().lines().toList();
        assertThat(wide.get(0))
                .matches("NAME +READY +STATUS +RESTARTS +AGE +IP +NODE +NOMINATED NODE +READINESS GATES");
        assertThat(wide.get(1)).startsWith("wide ");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void getWatchPrintsRowsForChangesMadeByABackgroundWriter(String version) throws Exception {
        Kubectl k = kubectl(version);
        ResourceClient<DynamicObject> cms = in(k, "configmaps");
        cms.create(DynamicObject.parse(configMap("w0", "{}")));
        Process watch = k.start("get", "configmaps", "-w", "--output-watch-events", "--request-timeout=0");
        try {
            BufferedReader out = Kubectl.reader(watch);
            Kubectl.readUntil(watch, out, l -> l.matches("ADDED +w0 .*"), WAIT);
            Thread writer = Thread.ofVirtual().start(() -> {
                DynamicObject w1 = cms.create(DynamicObject.parse(configMap("w1", "{}")));
                cms.update(w1.edit(n -> n.putObject("data").put("k", "v")));
                cms.delete("w1");
            });
            List<String> lines = Kubectl.readUntil(watch, out, l -> l.matches("DELETED +w1 .*"), WAIT);
            writer.join();
            assertThat(lines)
                    .anyMatch(l -> l.matches("ADDED +w1 +0 +.*"))
                    .anyMatch(l -> l.matches("MODIFIED +w1 +1 +.*"));
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void labelAndAnnotateAddRefuseWithoutOverwriteAndRemove(String version) {
        Kubectl k = kubectl(version);
        ResourceClient<DynamicObject> cms = in(k, "configmaps");
        cms.create(DynamicObject.parse(configMap("marked", "{}")));
        assertThat(ok(k.run("label", "configmap", "marked", "team=a")).out()).isEqualTo("configmap/marked labeled\n");
        Kubectl.Result clash = k.run("label", "configmap", "marked", "team=b");
        assertThat(clash.exit()).isEqualTo(1);
        assertThat(clash.out()).contains("'team' already has a value (a), and --overwrite is false");
        ok(k.run("label", "configmap", "marked", "team=b", "--overwrite"));
        assertThat(cms.get("marked").metadata().labels()).containsEntry("team", "b");
        assertThat(ok(k.run("label", "configmap", "marked", "team-")).out()).isEqualTo("configmap/marked unlabeled\n");
        assertThat(cms.get("marked").metadata().labels()).doesNotContainKey("team");

        // (kubectl 1.27 prints "annotate", later versions "annotated")
        assertThat(ok(k.run("annotate", "configmap", "marked", "note=hello world"))
                        .out())
                .matches("configmap/marked annotated?\n");
        assertThat(cms.get("marked").metadata().annotations()).containsEntry("note", "hello world");
        assertThat(k.run("annotate", "configmap", "marked", "note=again").exit())
                .isEqualTo(1);
        ok(k.run("annotate", "configmap", "marked", "note-"));
        assertThat(cms.get("marked").metadata().annotations()).doesNotContainKey("note");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void patchWithJsonAndMergePatches(String version) {
        Kubectl k = kubectl(version);
        ResourceClient<DynamicObject> cms = in(k, "configmaps");
        cms.create(DynamicObject.parse(configMap("patched", "{\"a\":\"1\"}")));
        assertThat(ok(k.run(
                                "patch",
                                "configmap",
                                "patched",
                                "--type",
                                "json",
                                "-p",
                                "[{\"op\":\"add\",\"path\":\"/data/b\",\"value\":\"2\"}]"))
                        .out())
                .isEqualTo("configmap/patched patched\n");
        ok(k.run("patch", "configmap", "patched", "--type", "merge", "-p", "{\"data\":{\"a\":null,\"c\":\"3\"}}"));
        assertThat(cms.get("patched").node().path("data").properties())
                .extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("b", "c");
        Kubectl.Result failedTest = k.run(
                "patch",
                "configmap",
                "patched",
                "--type",
                "json",
                "-p",
                "[{\"op\":\"test\",\"path\":\"/data/b\",\"value\":\"wrong\"}]");
        assertThat(failedTest.exit()).isEqualTo(1);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void deleteWaitsForTheFinalizerAndFinishesWhenItIsRemoved(String version) throws Exception {
        Kubectl k = kubectl(version);
        ResourceClient<DynamicObject> cms = in(k, "configmaps");
        cms.create(DynamicObject.parse("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"held","finalizers":["kubeloop.io/hold"]}}"""));
        Process delete = k.start("delete", "configmap", "held", "--timeout=60s");
        try {
            await().atMost(WAIT).until(() -> cms.get("held").metadata().deletionTimestamp() != null);
            assertThat(delete.isAlive())
                    .as("kubectl delete waits while the finalizer is there")
                    .isTrue();
            ok(k.run("patch", "configmap", "held", "--type", "merge", "-p", "{\"metadata\":{\"finalizers\":null}}"));
            assertThat(delete.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = new String(delete.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(delete.exitValue()).as(out).isZero();
            assertThat(out).contains("configmap \"held\" deleted");
        } finally {
            delete.destroyForcibly();
        }
        Kubectl.Result gone = k.run("get", "configmap", "held");
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.out()).contains("NotFound");
        Assertions.assertThatThrownBy(() -> cms.get("held")).isInstanceOf(NotFoundException.class);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void waitForConditionReturnsOnceTheStatusSubresourceSetsIt(String version) throws Exception {
        Kubectl k = kubectl(version);
        ResourceClient<DynamicObject> pods = in(k, "pods");
        pods.create(DynamicObject.parse("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"waited"},
                 "spec":{"schedulerName":"no-such-scheduler","containers":[{"name":"c","image":"busybox"}]}}"""));
        // no scheduler binds it, so no kubelet runs it: only the status write below makes it Ready
        Process wait = k.start("wait", "--for=condition=Ready", "pod/waited", "--timeout=60s");
        try {
            assertThat(wait.waitFor(1, TimeUnit.SECONDS))
                    .as("kubectl wait blocks until the condition holds")
                    .isFalse();
            pods.patchStatus("waited", PatchType.MERGE, """
                    {"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}""", PatchOptions.none());
            assertThat(wait.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(wait.exitValue()).as(out).isZero();
            assertThat(out).isEqualTo("pod/waited condition met\n");
        } finally {
            wait.destroyForcibly();
        }
    }

    // ---- need features other work is adding (skipped until the server has them) ----------------

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void createFromFileWithDefaultStrictValidation(String version) throws Exception {
        assumeTrue(
                features.openApiV3(),
                "server has no /openapi/v3 yet: kubectl create -f with default validation skipped");
        Kubectl k = kubectl(version);
        Path file = Files.writeString(
                dir.resolve("create-" + version + ".yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: created\ndata:\n  a: b\n");
        assertThat(ok(k.run("create", "-f", file.toString())).out()).isEqualTo("configmap/created created\n");
        Path bad = Files.writeString(
                dir.resolve("bad-" + version + ".yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\nnotAField: 1\n");
        Kubectl.Result rejected = k.run("create", "-f", bad.toString());
        assertThat(rejected.exit()).isEqualTo(1);
        assertThat(rejected.out()).contains("notAField");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void applyCreatesThenIsUnchangedThenConfigures(String version) throws Exception {
        assumeTrue(
                features.openApiV3() && features.strategicMerge(),
                "server lacks /openapi/v3 or strategic merge patch: kubectl apply skipped");
        Kubectl k = kubectl(version);
        Path file = dir.resolve("apply-" + version + ".yaml");
        Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: \"1\"\n");
        assertThat(ok(k.run("apply", "-f", file.toString())).out()).isEqualTo("configmap/applied created\n");
        assertThat(ok(k.run("apply", "-f", file.toString())).out()).isEqualTo("configmap/applied unchanged\n");
        Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: \"2\"\n");
        assertThat(ok(k.run("apply", "-f", file.toString())).out()).isEqualTo("configmap/applied configured\n");
        assertThat(in(k, "configmaps").get("applied").at("/data/a"))
                .hasValueSatisfying(v -> assertThat(v.asString()).isEqualTo("2"));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void applyServerSideReportsAConflictAndForceTakesOver(String version) throws Exception {
        assumeTrue(features.serverSideApply(), "server-side apply not served yet: kubectl apply --server-side skipped");
        Kubectl k = kubectl(version);
        Path file = dir.resolve("ssa-" + version + ".yaml");
        Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: \"1\"\n");
        assertThat(ok(k.run("apply", "--server-side", "-f", file.toString())).out())
                .isEqualTo("configmap/ssa serverside-applied\n");
        Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: \"2\"\n");
        Kubectl.Result conflict = k.run("apply", "--server-side", "--field-manager", "other", "-f", file.toString());
        assertThat(conflict.exit()).isEqualTo(1);
        assertThat(conflict.out()).contains("conflict", ".data.a");
        ok(k.run("apply", "--server-side", "--field-manager", "other", "--force-conflicts", "-f", file.toString()));
        assertThat(in(k, "configmaps").get("ssa").at("/data/a"))
                .hasValueSatisfying(v -> assertThat(v.asString()).isEqualTo("2"));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void strategicPatchMergesContainersByName(String version) {
        assumeTrue(
                features.strategicMerge(), "strategic merge patch not served yet: kubectl patch (strategic) skipped");
        Kubectl k = kubectl(version);
        in(k, "deployments").create(DynamicObject.parse(deployment("smp", "nginx:1")));
        ok(k.run(
                "patch",
                "deployment",
                "smp",
                "-p",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":\"envoy\"}]}}}}"));
        assertThat(in(k, "deployments")
                        .get("smp")
                        .node()
                        .at("/spec/template/spec/containers")
                        .findValuesAsString("name"))
                .containsExactlyInAnyOrder("main", "sidecar");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void scaleSetsReplicasThroughTheScaleSubresource(String version) {
        assumeTrue(features.scale(), "deployments/scale not served yet: kubectl scale skipped");
        Kubectl k = kubectl(version);
        in(k, "deployments").create(DynamicObject.parse(deployment("scaled", "nginx")));
        assertThat(ok(k.run("scale", "deployment", "scaled", "--replicas=3")).out())
                .isEqualTo("deployment.apps/scaled scaled\n");
        assertThat(in(k, "deployments").get("scaled").at("/spec/replicas"))
                .hasValueSatisfying(v -> assertThat(v.asInt()).isEqualTo(3));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void editRunsTheEditorAndPatchesTheChange(String version) throws Exception {
        assumeTrue(features.strategicMerge(), "strategic merge patch not served yet: kubectl edit skipped");
        Kubectl k = kubectl(version);
        in(k, "configmaps").create(DynamicObject.parse(configMap("edited", "{\"k\":\"old\"}")));
        Path editor = dir.resolve("editor.sh");
        Files.writeString(editor, "#!/bin/sh\nsed -i 's/k: old/k: new/' \"$1\"\n");
        editor.toFile().setExecutable(true);
        assertThat(ok(k.run(Map.of("KUBE_EDITOR", editor.toString()), "edit", "configmap", "edited"))
                        .out())
                .isEqualTo("configmap/edited edited\n");
        assertThat(in(k, "configmaps").get("edited").at("/data/k"))
                .hasValueSatisfying(v -> assertThat(v.asString()).isEqualTo("new"));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @MethodSource("fullVersions")
    void crdInstallThenCustomObjectsCreateGetApplyDelete(String version) throws Exception {
        Kubectl k = kubectl(version);
        String group = "v" + version.replace(".", "") + ".kubeloop.io";
        Path crd = Files.writeString(dir.resolve("crd-" + version + ".yaml"), """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.%s
                spec:
                  group: %s
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
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
                              size: {type: integer}
                """.formatted(group, group));
        String validate = features.openApiV3() ? "--validate=strict" : "--validate=false";
        ok(k.run("create", validate, "-f", crd.toString()));
        boolean established;
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> server.client()
                            .resource("customresourcedefinitions")
                            .get("widgets." + group)
                            .node()
                            .at("/status/conditions")
                            .findValuesAsString("type")
                            .contains("Established"));
            established = true;
        } catch (ConditionTimeoutException notYet) {
            established = false;
        }
        assumeTrue(established, "CustomResourceDefinitions do not become Established yet: custom object tests skipped");
        Path widget = Files.writeString(
                dir.resolve("widget-" + version + ".yaml"),
                "apiVersion: " + group + "/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 1\n");
        assertThat(ok(k.run("create", validate, "-f", widget.toString())).out())
                .isEqualTo("widget." + group + "/w1 created\n");
        assertThat(ok(k.run("get", "wd", "w1", "-o", "jsonpath={.spec.size}")).out())
                .isEqualTo("1");
        if (features.openApiV3()) {
            Files.writeString(
                    widget, "apiVersion: " + group + "/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 2\n");
            ok(k.run("apply", "-f", widget.toString()));
            assertThat(ok(k.run("get", "widgets", "w1", "-o", "jsonpath={.spec.size}"))
                            .out())
                    .isEqualTo("2");
        }
        assertThat(ok(k.run("delete", "widget", "w1")).out()).isEqualTo("widget." + group + " \"w1\" deleted\n");
        ok(k.run("delete", "-f", crd.toString()));
    }
}
