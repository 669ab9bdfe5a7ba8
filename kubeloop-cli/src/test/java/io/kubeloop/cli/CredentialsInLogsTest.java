package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.KubeConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No credential reaches a log at any verbosity. A durable {@code kubeloop server} logging everything
 * (SLF4J at trace, an audit log) serves clients that log at kubectl verbosities 8 and 10 (headers and bodies;
 * curl lines and whole bodies; SLF4J at trace) with the admin token, a token-file user's token, a ServiceAccount token from the
 * TokenRequest API and a wrong token, listing Secrets, being refused (403) and failing (401); afterwards neither
 * any of those tokens nor any line of the server's private keys appears in the server's output, the
 * clients' output or the audit log — while the logs do show the requests (Authorization headers masked).
 */
class CredentialsInLogsTest {

    private static final Duration START = Duration.ofSeconds(60);
    private static final Map<String, String> TRACE =
            Map.of("JAVA_TOOL_OPTIONS", "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace");

    @TempDir
    Path dir;

    private static String secret(String prefix) {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return prefix + HexFormat.of().formatHex(b);
    }

    @Test
    void noTokenKeyOrAuthorizationValueReachesAnyLogAtAnyVerbosity() throws Exception {
        String admin = secret("admin");
        String user = secret("user");
        String wrong = secret("wrong");
        Path tokens = dir.resolve("tokens.csv");
        Files.writeString(tokens, user + ",alice,uid-alice,\"team\"\n");
        Path kubeconfig = dir.resolve("admin.kubeconfig");
        Path audit = dir.resolve("audit.log");
        Path data = dir.resolve("data");
        List<String> logs = new ArrayList<>();
        List<String> secrets = new ArrayList<>(List.of(admin, user, wrong));

        try (KubeloopProcess server = KubeloopProcess.command(
                TRACE,
                "server",
                "--port",
                "0",
                "--kubeconfig-out",
                kubeconfig.toString(),
                "--token",
                admin,
                "--token-auth-file",
                tokens.toString(),
                "--audit-log-path",
                audit.toString(),
                "--data-dir",
                data.toString())) {
            server.awaitReady(START);
            String robot = serviceAccountToken(kubeconfig, admin);
            secrets.add(robot);

            Map<String, String> users = Map.of("admin", admin, "alice", user, "robot", robot, "nobody", wrong);
            for (var u : users.entrySet()) {
                Path config = withToken(kubeconfig, admin, u.getValue(), u.getKey());
                for (int v : new int[] {8, 10}) { // headers and bodies; curl lines and whole bodies
                    try (KubeloopProcess get = KubeloopProcess.command(
                            TRACE,
                            "get",
                            "--raw",
                            "/api/v1/secrets",
                            "--kubeconfig",
                            config.toString(),
                            "-v",
                            "" + v)) {
                        get.awaitExit(START);
                        logs.add(get.stdout());
                        logs.add(get.stderr());
                    }
                }
            }
            server.terminate(START);
            logs.add(server.stdout());
            logs.add(server.stderr());
        }
        logs.add(Files.readString(audit));
        List<String> keyLines;
        try (Stream<Path> files = Files.walk(data)) {
            keyLines = files.filter(f -> f.toString().endsWith(".key"))
                    .flatMap(CredentialsInLogsTest::lines)
                    .filter(l -> !l.startsWith("-----") && l.length() >= 16)
                    .toList();
        }
        assertThat(keyLines).as("lines of the server's keys").isNotEmpty();
        secrets.addAll(keyLines);

        String all = String.join("\n", logs);
        // the logs are there, and verbose: requests with their headers, the server's debug output, the audit
        assertThat(all)
                .contains("Authorization: Bearer <masked>", "Response Body:", "curl -v -XGET")
                .contains("DEBUG", "\"user\":{\"username\":\"alice\"", "system:serviceaccount:default:robot");
        for (String s : secrets) {
            assertThat(all).as("a credential in the logs").doesNotContain(s);
        }
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readString(file).lines();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates ServiceAccount {@code robot} and returns a token the TokenRequest API issued for it. */
    private static String serviceAccountToken(Path kubeconfig, String admin) throws IOException, InterruptedException {
        ClientConfig config =
                KubeConfigLoader.builder().kubeconfig(kubeconfig).build().clientConfig();
        try (HttpClient http =
                HttpClient.newBuilder().sslContext(config.sslContext()).build()) {
            URI base = config.server();
            post(
                    http,
                    base.resolve("/api/v1/namespaces/default/serviceaccounts"),
                    admin,
                    "{\"metadata\":{\"name\":\"robot\"}}");
            String answer = post(
                    http,
                    base.resolve("/api/v1/namespaces/default/serviceaccounts/robot/token"),
                    admin,
                    "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}");
            String token = KubeJson.mapper()
                    .readTree(answer)
                    .path("status")
                    .path("token")
                    .asString();
            assertThat(token).isNotEmpty();
            return token;
        }
    }

    private static String post(HttpClient http, URI uri, String token, String body)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri)
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return r.body();
    }

    /** A copy of the admin kubeconfig whose user sends {@code token} instead. */
    private Path withToken(Path kubeconfig, String admin, String token, String name) throws IOException {
        Path copy = dir.resolve(name + ".kubeconfig");
        String text = Files.readString(kubeconfig);
        assertThat(text).contains(admin);
        Files.writeString(copy, text.replace(admin, token));
        return copy;
    }
}
