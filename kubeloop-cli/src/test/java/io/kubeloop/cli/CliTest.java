package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CliTest {

    @TempDir
    Path dir;

    private FixtureApiServer server;
    private Path kubeconfig;

    record Result(int exit, String out, String err) {}

    @BeforeEach
    void start() throws IOException {
        server = new FixtureApiServer();
        kubeconfig = server.kubeconfig(dir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Result kubeloop(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                dir.resolve("kubeloop-cache").toString()));
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void apiResourcesPrintsKubectlColumnsSortedByGroupThenName() {
        Result r = kubeloop("api-resources");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                NAME          SHORTNAMES   APIVERSION                         NAMESPACED   KIND
                configmaps    cm           v1                                 true         ConfigMap
                namespaces    ns           v1                                 false        Namespace
                pods          po           v1                                 true         Pod
                deployments   deploy       apps/v1                            true         Deployment
                replicasets   rs           apps/v1                            true         ReplicaSet
                foos                       samplecontroller.k8s.io/v1alpha1   true         Foo
                """);
    }

    @Test
    void apiResourcesFiltersByGroupAndScopeAndPrintsNames() {
        assertThat(kubeloop("api-resources", "--api-group", "apps", "-o", "name")
                        .out())
                .isEqualTo("deployments.apps\nreplicasets.apps\n");
        assertThat(kubeloop("api-resources", "--namespaced=false", "--no-headers")
                        .out())
                .isEqualTo("namespaces   ns    v1    false   Namespace\n");
    }

    @Test
    void apiResourcesWideAddsVerbsAndCategories() {
        String out =
                kubeloop("api-resources", "-o", "wide", "--api-group", "apps").out();
        assertThat(out.lines().findFirst().orElseThrow())
                .matches("NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND +VERBS +CATEGORIES");
        assertThat(out).contains("create,delete,deletecollection,get,list,patch,update,watch   all");
    }

    // usage errors point at "kubeloop <command> --help": every subcommand must answer it
    @Test
    void everySubcommandAnswersHelpWithItsUsage() {
        for (String command :
                List.of("api-resources", "api-versions", "demo", "sample-controller", "get", "watch", "server")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = Main.run(new PrintWriter(out), new PrintWriter(err), command, "--help");
            assertThat(exit).as(command + ": " + err).isZero();
            assertThat(out.toString()).as(command).startsWith("Usage: kubeloop " + command);
        }
    }

    @Test
    void apiVersionsListsEveryGroupVersion() {
        Result r = kubeloop("api-versions");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("apps/v1\nsamplecontroller.k8s.io/v1alpha1\nv1\n");
    }

    @Test
    void getRawPrintsTheBodyAsServed() {
        Result r = kubeloop("get", "--raw", "/version");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("{\"major\":\"1\",\"minor\":\"32\"").endsWith("}\n");
    }

    @Test
    void getRawOfAMissingPathIsOneServerErrorLine() {
        Result r = kubeloop("get", "--raw", "/nope");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo("Error from server (NotFound): the server could not find the requested resource\n");
    }

    @Test
    void unauthorizedIsKubectlsOneLineMessage() {
        server.mode(FixtureApiServer.Mode.UNAUTHORIZED);
        Result r = kubeloop("api-resources");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("error: You must be logged in to the server (Unauthorized)\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void forbiddenIsOneLineWithTheServersMessage() {
        server.mode(FixtureApiServer.Mode.FORBIDDEN);
        Result r = kubeloop("get", "--raw", "/api");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo(
                        "Error from server (Forbidden): forbidden: User \"system:anonymous\" cannot get path \"/api\"\n");
    }

    @Test
    void unreachableServerIsOneLine() throws IOException {
        Files.writeString(kubeconfig, Files.readString(kubeconfig).replace(server.url(), "http://127.0.0.1:1"));
        Result r = kubeloop("api-versions");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("error: cannot reach http://127.0.0.1:1: connection refused\n");
    }

    @Test
    void missingContextAndMissingKubeconfigAreOneLineEach() {
        Result r = kubeloop("api-versions", "--context", "nope");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("error: kubeconfig " + kubeconfig + ": context \"nope\" not found\n");

        StringWriter err = new StringWriter();
        int exit = Main.run(
                new PrintWriter(new StringWriter()),
                new PrintWriter(err),
                "api-versions",
                "--kubeconfig",
                dir.resolve("absent").toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("error: kubeconfig " + dir.resolve("absent") + ": file does not exist\n");
    }

    @Test
    void stackTracesOnlyWithDebug() {
        server.mode(FixtureApiServer.Mode.UNAUTHORIZED);
        assertThat(kubeloop("api-versions").err()).doesNotContain("\tat ");
        assertThat(kubeloop("api-versions", "--debug").err()).contains("\tat io.kubeloop.");
    }

    @Test
    void verboseEightLogsRequestsButNeverTheToken() {
        Result r = kubeloop("get", "--raw", "/version", "-v", "8");
        assertThat(r.exit()).isZero();
        assertThat(r.err())
                .contains("GET " + server.url() + "/version\n")
                .contains("Response Status: 200 OK in ")
                .contains("Authorization: Bearer <masked>")
                .contains("Response Body:")
                .doesNotContain(FixtureApiServer.TOKEN);
        Result nine = kubeloop("api-versions", "-v", "9");
        assertThat(nine.err()).contains("curl").doesNotContain(FixtureApiServer.TOKEN);
    }

    // --- the same commands through real kubectl, side by side ---

    static List<String> kubectls() {
        return KubectlBinaries.find(List.of("1.27", "1.33", "current"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kubectls")
    void apiResourcesAndApiVersionsMatchKubectlByteForByte(String kubectl) throws Exception {
        for (List<String> command : List.of(
                List.of("api-resources"),
                List.of("api-versions"),
                List.of("api-resources", "-o", "name"),
                List.of("api-resources", "--api-group", "apps"),
                List.of("api-resources", "-o", "wide"),
                List.of("api-resources", "--namespaced=false", "--no-headers"))) {
            String ours = kubeloop(command.toArray(String[]::new)).out();
            assertThat(ours).isEqualTo(run(kubectl, command)).as(kubectl + " " + command);
        }
    }

    private String run(String kubectl, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(kubectl));
        command.addAll(args);
        command.addAll(List.of(
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                dir.resolve("kubectl-cache").toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}
