package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Exec credential plugins as real bash scripts, driven through the kubeconfig loader. */
class ExecCredentialProviderTest {

    private static final String V1 = "client.authentication.k8s.io/v1";
    private static final String V1BETA1 = "client.authentication.k8s.io/v1beta1";

    @TempDir
    Path dir;

    private final FakeTicker clock = new FakeTicker(Instant.parse("2030-01-01T00:00:00Z"));
    private ConfigEnvironment env;

    @BeforeEach
    void setUp() {
        env = new ConfigEnvironment(
                Map.of("PATH", System.getenv("PATH"), "FROM_PARENT", "parent"), dir, dir.resolve("no-sa"), clock);
    }

    /**
     * A plugin that counts its runs (file {@code count}), records its args, {@code KUBERNETES_EXEC_INFO}
     * and {@code $GREETING}, then runs {@code body} (which may use {@code $n}, the run number).
     */
    private void plugin(String body) throws IOException {
        Path script = dir.resolve("bin/plugin.sh");
        Files.createDirectories(script.getParent());
        Files.writeString(script, """
                #!/bin/bash
                set -e
                d="$(dirname "$0")/.."
                n=$(( $(cat "$d/count" 2>/dev/null || echo 0) + 1 ))
                echo $n > "$d/count"
                printf '%%s' "$*" > "$d/args"
                printf '%%s' "$KUBERNETES_EXEC_INFO" > "$d/exec-info.json"
                printf '%%s/%%s' "$GREETING" "$FROM_PARENT" > "$d/env"
                %s
                """.formatted(body));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static String tokenResponse(String apiVersion, String expiry) {
        String exp = expiry == null ? "" : ", \"expirationTimestamp\": \"" + expiry + "\"";
        return "echo '{\"apiVersion\": \"" + apiVersion + "\", \"kind\": \"ExecCredential\", "
                + "\"status\": {\"token\": \"tok-'$n'\"" + exp + "}}'";
    }

    /** A kubeconfig whose only user runs {@code ./bin/plugin.sh} (relative: resolved against the file). */
    private Path kubeconfig(String server, String clusterExtra, String execExtra) throws IOException {
        Path file = dir.resolve("config");
        Files.writeString(file, """
                current-context: c
                clusters:
                - name: c
                  cluster:
                    server: %s
                %s
                users:
                - name: u
                  user:
                    exec:
                      command: ./bin/plugin.sh
                      args: [get-token, --verbose]
                      env:
                      - {name: GREETING, value: hello}
                %s
                contexts:
                - name: c
                  context: {cluster: c, user: u}
                """.formatted(server, indent(clusterExtra, 4), indent(execExtra, 6)));
        return file;
    }

    private static String indent(String yaml, int spaces) {
        return yaml.lines()
                .map(l -> " ".repeat(spaces) + l)
                .reduce((a, b) -> a + "\n" + b)
                .orElse("");
    }

    private ClientConfig load(Path kubeconfig) {
        return KubeConfigLoader.builder()
                .kubeconfig(kubeconfig)
                .environment(env)
                .build()
                .clientConfig();
    }

    private int runs() throws IOException {
        Path count = dir.resolve("count");
        return Files.exists(count) ? Integer.parseInt(Files.readString(count).strip()) : 0;
    }

    @Test
    void v1PluginGetsArgsEnvAndExecInfoAndItsTokenIsUsed() throws IOException {
        plugin(tokenResponse(V1, null));
        AuthProvider auth = load(kubeconfig(
                        "https://10.0.0.1:6443",
                        "tls-server-name: api.internal",
                        "apiVersion: " + V1 + "\ninteractiveMode: Never\nprovideClusterInfo: true"))
                .auth();

        assertThat(auth.authorization()).contains("Bearer tok-1");
        assertThat(Files.readString(dir.resolve("args"))).isEqualTo("get-token --verbose");
        assertThat(Files.readString(dir.resolve("env"))).isEqualTo("hello/parent");
        JsonNode info = JsonMapper.builder().build().readTree(Files.readString(dir.resolve("exec-info.json")));
        assertThat(info.path("apiVersion").asString()).isEqualTo(V1);
        assertThat(info.path("kind").asString()).isEqualTo("ExecCredential");
        assertThat(info.path("spec").path("interactive").isBoolean()).isTrue();
        assertThat(info.path("spec").path("interactive").booleanValue()).isFalse();
        assertThat(info.path("spec").path("cluster").path("server").asString()).isEqualTo("https://10.0.0.1:6443");
        assertThat(info.path("spec").path("cluster").path("tls-server-name").asString())
                .isEqualTo("api.internal");
    }

    @Test
    void clusterInfoIsOmittedUnlessRequested() throws IOException {
        plugin(tokenResponse(V1, null));
        load(kubeconfig("https://10.0.0.1:6443", "", "apiVersion: " + V1 + "\ninteractiveMode: IfAvailable"))
                .auth()
                .authorization();
        JsonNode info = JsonMapper.builder().build().readTree(Files.readString(dir.resolve("exec-info.json")));
        assertThat(info.path("spec").has("cluster")).isFalse();
    }

    @Test
    void v1beta1PluginWorksWithoutInteractiveMode() throws IOException {
        plugin(tokenResponse(V1BETA1, null));
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1BETA1))
                .auth();
        assertThat(auth.authorization()).contains("Bearer tok-1");
        assertThat(Files.readString(dir.resolve("exec-info.json"))).contains(V1BETA1);
    }

    @Test
    void credentialIsCachedUntilShortlyBeforeExpiry() throws IOException {
        plugin(tokenResponse(V1, "2030-01-01T01:00:00Z"));
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThat(auth.authorization()).contains("Bearer tok-1");
        clock.step(Duration.ofMinutes(59));
        assertThat(auth.authorization()).contains("Bearer tok-1");
        assertThat(runs()).isEqualTo(1);
        clock.step(Duration.ofSeconds(60).minus(ExecCredentialProvider.REFRESH_BEFORE_EXPIRY));
        assertThat(auth.authorization()).contains("Bearer tok-2");
        assertThat(runs()).isEqualTo(2);
    }

    @Test
    void credentialWithoutExpiryIsKeptUntilInvalidated() throws IOException {
        plugin(tokenResponse(V1, null));
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThat(auth.authorization()).contains("Bearer tok-1");
        clock.step(Duration.ofDays(365));
        assertThat(auth.authorization()).contains("Bearer tok-1");
        auth.invalidate();
        assertThat(auth.authorization()).contains("Bearer tok-2");
    }

    @Test
    void failingPluginReportsExitCodeAndStderr() throws IOException {
        plugin("echo '  token expired' >&2\necho 'run: login again' >&2\nexit 3");
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThatThrownBy(auth::authorization)
                .isInstanceOf(CredentialException.class)
                .hasMessage("exec plugin \"" + dir.resolve("bin/plugin.sh") + "\" (user \"u\" in "
                        + dir.resolve("config") + "): failed with exit code 3: token expired / run: login again");
        // nothing was cached: the next call runs the plugin again
        assertThatThrownBy(auth::authorization).isInstanceOf(CredentialException.class);
        assertThat(runs()).isEqualTo(2);
    }

    /**
     * A plugin that never answers is killed at the timeout — with the processes it started, which would
     * otherwise hold its output open — and the call fails naming it, instead of hanging the client.
     */
    @Test
    void aHangingPluginIsKilledWithItsChildrenAtTheTimeout() throws Exception {
        plugin("echo $$ > \"$d/pid\"\nsleep 60 &\necho $! > \"$d/child\"\nwait");
        ExecCredentialProvider provider = new ExecCredentialProvider(
                new KubeConfig.Exec(
                        dir.resolve("bin/plugin.sh").toString(), List.of(), Map.of(), V1, null, false, "Never"),
                null,
                env,
                "user \"u\"",
                Duration.ofSeconds(1));
        long start = System.nanoTime();
        assertThatThrownBy(provider::authorization)
                .isInstanceOf(CredentialException.class)
                .hasMessageContaining("did not finish within 1s; killed");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        for (String pidFile : List.of("pid", "child")) {
            long pid = Long.parseLong(Files.readString(dir.resolve(pidFile)).strip());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        }
    }

    @Test
    void missingPluginMentionsTheInstallHint() throws IOException {
        Path file = dir.resolve("config");
        Files.writeString(file, """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://10.0.0.1"}}]
                users:
                - name: u
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      interactiveMode: Never
                      command: kubeloop-no-such-credential-plugin
                      installHint: "Install it with: brew install kubeloop-login"
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        assertThatThrownBy(() -> load(file).auth().authorization())
                .isInstanceOf(CredentialException.class)
                .hasMessageStartingWith("exec plugin \"kubeloop-no-such-credential-plugin\" (user \"u\" in " + file
                        + "): executable not found or not runnable (")
                .hasMessageEndingWith("; Install it with: brew install kubeloop-login");
    }

    @Test
    void invalidJsonIsReported() throws IOException {
        plugin("echo 'this is not json'");
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThatThrownBy(auth::authorization)
                .isInstanceOf(CredentialException.class)
                .hasMessageContaining("): printed invalid JSON: ");
    }

    @Test
    void wrongApiVersionIsReported() throws IOException {
        plugin(tokenResponse(V1BETA1, null));
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThatThrownBy(auth::authorization)
                .isInstanceOf(CredentialException.class)
                .hasMessageEndingWith(
                        "): is configured to use API version " + V1 + ", plugin returned version " + V1BETA1);
    }

    @Test
    void missingStatusAndHalfACertificateAreReported() throws IOException {
        plugin("echo '{\"apiVersion\": \"" + V1 + "\", \"kind\": \"ExecCredential\"}'");
        AuthProvider auth = load(kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Never"))
                .auth();
        assertThatThrownBy(auth::authorization).hasMessageEndingWith("): didn't return a status field");
        plugin("echo '{\"apiVersion\": \"" + V1
                + "\", \"kind\": \"ExecCredential\", \"status\": {\"clientKeyData\": \"x\"}}'");
        assertThatThrownBy(auth::authorization).hasMessageEndingWith("): returned only certificate or key, not both");
    }

    @Test
    void v1WithoutInteractiveModeIsAConfigError() throws IOException {
        plugin(tokenResponse(V1, null));
        Path file = kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1);
        assertThatThrownBy(() -> load(file))
                .isInstanceOf(KubeConfigException.class)
                .hasMessage("kubeconfig " + file + ": users[0].user.exec.interactiveMode: missing (required for " + V1
                        + ")");
    }

    @Test
    void interactiveModeAlwaysIsRejectedBecauseThereIsNoTerminal() throws IOException {
        plugin(tokenResponse(V1, null));
        Path file = kubeconfig("https://10.0.0.1", "", "apiVersion: " + V1 + "\ninteractiveMode: Always");
        assertThatThrownBy(() -> load(file))
                .isInstanceOf(KubeConfigException.class)
                .hasMessage("kubeconfig " + file + ": users[0].user.exec.interactiveMode: "
                        + "Always requires a terminal on standard input, which kubeloop never provides");
    }

    @Test
    void unsupportedApiVersionIsAConfigError() throws IOException {
        plugin(tokenResponse(V1, null));
        Path file = kubeconfig("https://10.0.0.1", "", "apiVersion: client.authentication.k8s.io/v1alpha1");
        assertThatThrownBy(() -> load(file))
                .isInstanceOf(KubeConfigException.class)
                .hasMessageContaining(
                        "users[0].user.exec.apiVersion: \"client.authentication.k8s.io/v1alpha1\" is not supported");
    }

    @Test
    void pluginClientCertificateIsPresentedAndRotates() throws Exception {
        TestPki pki = new TestPki();
        TestPki.Issued ca = pki.ca("exec-ca");
        TestPki.Issued alice = pki.client(ca, "alice", TestPki.rsa());
        TestPki.Issued erin = pki.client(ca, "erin", TestPki.ec());
        JsonMapper json = JsonMapper.builder().build();
        Path response = dir.resolve("response.json");
        for (TestPki.Issued who : List.of(alice, erin)) {
            Files.writeString(
                    dir.resolve("response-"
                            + who.certificate().getSubjectX500Principal().getName() + ".json"),
                    json.writeValueAsString(Map.of(
                            "apiVersion",
                            V1,
                            "kind",
                            "ExecCredential",
                            "status",
                            Map.of(
                                    "clientCertificateData",
                                    who.certificatePem(),
                                    "clientKeyData",
                                    who.pkcs8KeyPem()))));
        }
        plugin("cat \"$d/response.json\"");
        try (TestHttpsServer server =
                new TestHttpsServer(pki.server(ca, List.of(), List.of("127.0.0.1")), ca.certificate(), true)) {
            String caData =
                    Base64.getEncoder().encodeToString(ca.certificatePem().getBytes(StandardCharsets.UTF_8));
            ClientConfig config = load(kubeconfig(
                    "https://127.0.0.1:" + server.port(),
                    "certificate-authority-data: " + caData,
                    "apiVersion: " + V1 + "\ninteractiveMode: Never"));

            Files.copy(dir.resolve("response-CN=alice.json"), response);
            assertThat(config.auth().authorization()).isEmpty();
            assertThat(server.get(config.sslContext(), "127.0.0.1")).isEqualTo("CN=alice");

            Files.copy(dir.resolve("response-CN=erin.json"), response, StandardCopyOption.REPLACE_EXISTING);
            config.auth().invalidate();
            assertThat(config.auth().authorization()).isEmpty();
            assertThat(server.get(config.sslContext(), "127.0.0.1")).isEqualTo("CN=erin");
        }
    }
}
