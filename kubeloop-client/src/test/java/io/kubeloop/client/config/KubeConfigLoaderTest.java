package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.testing.FakeTicker;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeConfigLoaderTest {

    @TempDir
    Path dir;

    private Path home;
    private ConfigEnvironment env;

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(dir.resolve("home"));
        env = new ConfigEnvironment(
                Map.of(),
                home,
                dir.resolve("no-service-account"),
                new FakeTicker(Instant.parse("2030-01-01T00:00:00Z")));
    }

    private Path write(String relative, String content) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file;
    }

    private KubeConfigLoader.Builder loader() {
        return KubeConfigLoader.builder().environment(env);
    }

    private KubeConfigLoader.Builder withKubeconfigVar(Path... files) {
        String joined = String.join(
                File.pathSeparator, Arrays.stream(files).map(Path::toString).toList());
        env = env.withVariables(Map.of("KUBECONFIG", joined));
        return loader();
    }

    private static final String FIRST = """
            current-context: first-ctx
            clusters:
            - name: shared
              cluster:
                server: https://first.example:6443
                certificate-authority: certs/ca.crt
            - name: only-first
              cluster:
                server: https://only-first.example
            users:
            - name: shared-user
              user:
                tokenFile: tokens/token
            contexts:
            - name: first-ctx
              context: {cluster: shared, user: shared-user, namespace: first-ns}
            preferences:
              colors: true
            """;

    private static final String SECOND = """
            current-context: second-ctx
            clusters:
            - name: shared
              cluster:
                server: https://second.example:6443
                insecure-skip-tls-verify: true
            - name: only-second
              cluster:
                server: https://only-second.example
                insecure-skip-tls-verify: true
            users:
            - name: shared-user
              user: {token: from-second}
            - name: second-user
              user:
                client-certificate: second.crt
                client-key: second.key
            contexts:
            - name: second-ctx
              context: {cluster: only-second, user: shared-user}
            - name: first-ctx
              context: {cluster: only-second}
            """;

    @Nested
    class Merging {

        @Test
        void firstFileDefiningANameWinsAndFirstCurrentContextWins() throws IOException {
            Path first = write("a/config", FIRST);
            Path second = write("b/config", SECOND);
            KubeConfig merged = withKubeconfigVar(first, second).build().load();

            assertThat(merged.files()).containsExactly(first, second);
            assertThat(merged.currentContext()).isEqualTo("first-ctx");
            assertThat(merged.clusters()).containsOnlyKeys("shared", "only-first", "only-second");
            assertThat(merged.clusters().get("shared").server()).isEqualTo("https://first.example:6443");
            // the winner's entry is taken whole: nothing from the second file's "shared" leaks in
            assertThat(merged.clusters().get("shared").insecureSkipTlsVerify()).isFalse();
            assertThat(merged.users().get("shared-user").token()).isNull();
            assertThat(merged.contexts().get("first-ctx").namespace()).isEqualTo("first-ns");
            assertThat(merged.contexts().get("second-ctx").origin().file()).isEqualTo(second);
            assertThat(merged.preferences()).containsEntry("colors", true);
        }

        @Test
        void laterFileSetsCurrentContextWhenEarlierDoesNot() throws IOException {
            Path first = write("a/config", FIRST.replace("current-context: first-ctx", ""));
            Path second = write("b/config", SECOND);
            assertThat(withKubeconfigVar(first, second).build().load().currentContext())
                    .isEqualTo("second-ctx");
        }

        @Test
        void relativePathsResolveAgainstTheDefiningFile() throws IOException {
            Path first = write("a/config", FIRST);
            Path second = write("b/config", SECOND);
            KubeConfig merged = withKubeconfigVar(first, second).build().load();
            assertThat(merged.clusters().get("shared").certificateAuthority()).isEqualTo(dir.resolve("a/certs/ca.crt"));
            assertThat(merged.users().get("shared-user").tokenFile()).isEqualTo(dir.resolve("a/tokens/token"));
            assertThat(merged.users().get("second-user").clientCertificate()).isEqualTo(dir.resolve("b/second.crt"));
            assertThat(merged.users().get("second-user").clientKey()).isEqualTo(dir.resolve("b/second.key"));
        }

        @Test
        void missingKubeconfigEntriesAreSkippedAndDuplicatesReadOnce() throws IOException {
            Path second = write("b/config", SECOND);
            KubeConfig merged = withKubeconfigVar(dir.resolve("missing"), second, second)
                    .build()
                    .load();
            assertThat(merged.files()).containsExactly(second);
            assertThat(merged.currentContext()).isEqualTo("second-ctx");
        }

        @Test
        void kubeconfigVariableReplacesTheHomeFile() throws IOException {
            write("home/.kube/config", FIRST);
            Path second = write("b/config", SECOND);
            assertThat(withKubeconfigVar(second).build().load().files()).containsExactly(second);
        }

        @Test
        void homeFileIsUsedWithoutExplicitPathOrVariable() throws IOException {
            Path homeConfig = write("home/.kube/config", SECOND);
            KubeConfigLoader loader = loader().build();
            assertThat(loader.candidateFiles()).containsExactly(homeConfig);
            assertThat(loader.clientConfig().server()).isEqualTo(URI.create("https://only-second.example"));
        }

        @Test
        void explicitPathIsTheOnlyFileRead() throws IOException {
            Path first = write("a/config", FIRST);
            Path second = write("b/config", SECOND);
            env = env.withVariables(Map.of("KUBECONFIG", first.toString()));
            assertThat(loader().kubeconfig(second).build().load().files()).containsExactly(second);
        }

        @Test
        void missingExplicitPathIsAnError() {
            Path missing = dir.resolve("nope");
            assertThatThrownBy(() -> loader().kubeconfig(missing).build().clientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessage("kubeconfig " + missing + ": file does not exist");
        }
    }

    @Nested
    class Selection {

        @Test
        void currentContextSelectsClusterUserAndNamespace() throws IOException {
            Path file = write("b/config", SECOND);
            ClientConfig config = loader().kubeconfig(file).build().clientConfig();
            assertThat(config.server()).isEqualTo(URI.create("https://only-second.example"));
            assertThat(config.auth().authorization()).contains("Bearer from-second");
            assertThat(config.namespace()).isEqualTo("default");
            assertThat(config.source()).isEqualTo("context \"second-ctx\" in " + file);
        }

        @Test
        void explicitContextAndNamespaceOverride() throws IOException {
            Path first = write("a/config", FIRST);
            write("a/tokens/token", "file-token\n");
            write("a/certs/ca.crt", new TestPki().ca("ca").certificatePem());
            ClientConfig config = loader().kubeconfig(first)
                    .context("first-ctx")
                    .namespace("override")
                    .build()
                    .clientConfig();
            assertThat(config.namespace()).isEqualTo("override");
            assertThat(config.auth().authorization()).contains("Bearer file-token");
        }

        @Test
        void clusterAndUserOverridesReplaceTheContexts() throws IOException {
            Path second = write("b/config", SECOND);
            ClientConfig config = loader().kubeconfig(second)
                    .cluster("shared")
                    .user("shared-user")
                    .build()
                    .clientConfig();
            assertThat(config.server()).isEqualTo(URI.create("https://second.example:6443"));
        }

        @Test
        void serverWithoutSchemeMeansHttps() throws IOException {
            Path file = write("config", SECOND.replace("https://only-second.example", "10.0.0.1:6443"));
            assertThat(loader().kubeconfig(file).build().clientConfig().server())
                    .isEqualTo(URI.create("https://10.0.0.1:6443"));
        }

        @Test
        void contextWithoutUserHasNoCredentials() throws IOException {
            Path file = write("b/config", SECOND);
            ClientConfig config =
                    loader().kubeconfig(file).context("first-ctx").build().clientConfig();
            assertThat(config.auth().authorization()).isEmpty();
        }

        @Test
        void basicAuthSendsUsernameAndPassword() throws IOException {
            Path file = write(
                    "config", SECOND.replace("user: {token: from-second}", "user: {username: ann, password: s3cret}"));
            assertThat(loader().kubeconfig(file).build().clientConfig().auth().authorization())
                    .contains("Basic "
                            + Base64.getEncoder().encodeToString("ann:s3cret".getBytes(StandardCharsets.UTF_8)));
        }

        @Test
        void proxyUrlIsExposed() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace(
                            "insecure-skip-tls-verify: true\nusers",
                            "insecure-skip-tls-verify: true\n    proxy-url: http://proxy.local:3128\nusers"));
            assertThat(loader().kubeconfig(file).build().clientConfig().proxy())
                    .isEqualTo(URI.create("http://proxy.local:3128"));
        }
    }

    @Nested
    class Errors {

        private void assertError(Path file, KubeConfigLoader.Builder builder, String detail) {
            assertThatThrownBy(() -> builder.build().clientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessage("kubeconfig " + file + ": " + detail);
        }

        @Test
        void unknownContextNamesTheFileAndContext() throws IOException {
            Path file = write("config", SECOND);
            assertError(file, loader().kubeconfig(file).context("foo"), "context \"foo\" not found");
        }

        @Test
        void unknownContextAcrossMergedFilesNamesAllFiles() throws IOException {
            Path first = write("a/config", FIRST);
            Path second = write("b/config", SECOND);
            assertError(
                    Path.of(first + File.pathSeparator + second),
                    withKubeconfigVar(first, second).context("foo"),
                    "context \"foo\" not found");
        }

        @Test
        void missingCurrentContext() throws IOException {
            Path file = write("config", SECOND.replace("current-context: second-ctx", ""));
            assertError(file, loader().kubeconfig(file), "current-context is not set and no context was given");
        }

        @Test
        void contextReferencingAMissingClusterNamesTheField() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace("{cluster: only-second, user: shared-user}", "{cluster: gone, user: shared-user}"));
            assertError(file, loader().kubeconfig(file), "contexts[0].context.cluster: cluster \"gone\" not found");
        }

        @Test
        void contextReferencingAMissingUserNamesTheField() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace("{cluster: only-second, user: shared-user}", "{cluster: only-second, user: ghost}"));
            assertError(file, loader().kubeconfig(file), "contexts[0].context.user: user \"ghost\" not found");
        }

        @Test
        void clusterWithoutServer() throws IOException {
            Path file = write("config", SECOND.replace("server: https://only-second.example", "tls-server-name: x"));
            assertError(file, loader().kubeconfig(file), "clusters[1].cluster.server: missing");
        }

        @Test
        void badBase64NamesTheField() throws IOException {
            Path file = write("config", SECOND.replace("client-key: second.key", "client-key-data: not*base64"));
            assertError(file, loader().kubeconfig(file), "users[1].user.client-key-data: not valid base64");
        }

        @Test
        void invalidPemInDataNamesTheField() throws IOException {
            String notPem = Base64.getEncoder().encodeToString("hello".getBytes(StandardCharsets.UTF_8));
            Path file = write(
                    "config",
                    SECOND.replace(
                            "insecure-skip-tls-verify: true\nusers",
                            "certificate-authority-data: " + notPem + "\nusers"));
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "clusters[1].cluster.certificate-authority-data: no PEM certificate found");
        }

        @Test
        void insecureWithCertificateAuthorityIsRejected() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace(
                            "insecure-skip-tls-verify: true\nusers",
                            "insecure-skip-tls-verify: true\n    certificate-authority: ca.crt\nusers"));
            write("ca.crt", new TestPki().ca("ca").certificatePem());
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "clusters[1].cluster.insecure-skip-tls-verify: cannot be combined with certificate-authority or certificate-authority-data");
        }

        @Test
        void unreadableCertificateAuthorityFileNamesFieldAndPath() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace(
                            "insecure-skip-tls-verify: true\nusers", "certificate-authority: missing-ca.crt\nusers"));
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "clusters[1].cluster.certificate-authority: cannot read " + dir.resolve("missing-ca.crt")
                            + " (NoSuchFileException)");
        }

        @Test
        void clientCertificateWithoutKey() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace(
                            "user: {token: from-second}",
                            "user: {client-certificate-data: "
                                    + Base64.getEncoder().encodeToString("x".getBytes(StandardCharsets.UTF_8)) + "}"));
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "users[0].user.client-key: missing (client-key-data or client-key is required with a client certificate)");
        }

        @Test
        void tokenAndBasicAuthTogetherAreRejected() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace("user: {token: from-second}", "user: {token: t, username: u, password: p}"));
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "users[0].user: more than one authentication method found "
                            + "for user \"shared-user\"; found token, basicAuth, only one is allowed");
        }

        @Test
        void socksProxyIsUnsupported() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace(
                            "insecure-skip-tls-verify: true\nusers",
                            "insecure-skip-tls-verify: true\n    proxy-url: socks5://127.0.0.1:1080\nusers"));
            assertThatThrownBy(() -> loader().kubeconfig(file).build().clientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessageStartingWith(
                            "kubeconfig " + file + ": clusters[1].cluster.proxy-url: socks5 proxies are not supported");
        }

        @Test
        void duplicateNamesInOneFileAreRejected() throws IOException {
            Path file = write("config", SECOND.replace("name: only-second", "name: shared"));
            assertError(
                    file,
                    loader().kubeconfig(file).context("first-ctx"),
                    "clusters[1].name: duplicate name \"shared\" (also clusters[0])");
        }

        @Test
        void malformedYamlReportsTheLine() throws IOException {
            Path file = write("config", "clusters:\n- name: a\n  cluster: {server: [\n");
            assertThatThrownBy(() -> loader().kubeconfig(file).build().clientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessageStartingWith("kubeconfig " + file + ": invalid YAML at line");
        }

        @Test
        void wrongTypeNamesTheField() throws IOException {
            Path file = write(
                    "config",
                    SECOND.replace("insecure-skip-tls-verify: true\nusers", "insecure-skip-tls-verify: maybe\nusers"));
            assertError(
                    file,
                    loader().kubeconfig(file),
                    "clusters[1].cluster.insecure-skip-tls-verify: expected true or false");
        }

        @Test
        void invalidFileInKubeconfigVariableFailsEvenIfUnused() throws IOException {
            Path good = write("a/config", FIRST);
            Path bad = write("b/config", "users: 42\n");
            assertThatThrownBy(() -> withKubeconfigVar(good, bad).build().load())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessage("kubeconfig " + bad + ": users: expected a list");
        }

        @Test
        void noFileAnywhere() {
            Path expected = home.resolve(".kube/config");
            assertThatThrownBy(() -> loader().build().clientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessage("kubeconfig " + expected + ": no such file");
        }
    }

    @Nested
    class AutoResolution {

        private void inCluster() throws IOException {
            Path sa = Files.createDirectories(dir.resolve("sa"));
            Files.writeString(sa.resolve("token"), "sa-token");
            Files.writeString(sa.resolve("namespace"), "pods-ns");
            env = env.withServiceAccountDir(sa);
        }

        @Test
        void inClusterBeatsTheHomeFileWithoutKubeconfigVariable() throws IOException {
            write("home/.kube/config", SECOND);
            inCluster();
            env = env.withVariables(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"));
            ClientConfig config = loader().build().autoClientConfig();
            assertThat(config.server()).isEqualTo(URI.create("https://10.96.0.1:443"));
            assertThat(config.namespace()).isEqualTo("pods-ns");
        }

        @Test
        void kubeconfigVariableBeatsInCluster() throws IOException {
            Path file = write("b/config", SECOND);
            inCluster();
            env = env.withVariables(Map.of(
                    "KUBECONFIG",
                    file.toString(),
                    "KUBERNETES_SERVICE_HOST",
                    "10.96.0.1",
                    "KUBERNETES_SERVICE_PORT",
                    "443"));
            assertThat(loader().build().autoClientConfig().server())
                    .isEqualTo(URI.create("https://only-second.example"));
        }

        @Test
        void explicitPathBeatsEverything() throws IOException {
            Path file = write("b/config", SECOND);
            inCluster();
            env = env.withVariables(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"));
            assertThat(loader().kubeconfig(file).build().autoClientConfig().server())
                    .isEqualTo(URI.create("https://only-second.example"));
        }

        @Test
        void homeFileIsTheLastResort() throws IOException {
            write("home/.kube/config", SECOND);
            assertThat(loader().build().autoClientConfig().server())
                    .isEqualTo(URI.create("https://only-second.example"));
        }

        @Test
        void nothingConfiguredSaysWhatToDo() {
            assertThatThrownBy(() -> loader().build().autoClientConfig())
                    .isInstanceOf(KubeConfigException.class)
                    .hasMessageStartingWith("no configuration found: pass a kubeconfig, set KUBECONFIG");
        }
    }
}
