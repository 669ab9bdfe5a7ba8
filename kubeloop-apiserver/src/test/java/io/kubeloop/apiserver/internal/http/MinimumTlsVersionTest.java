package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded server speaks TLS 1.2 and 1.3 only, as kube-apiserver's default minimum: a client that
 * offers nothing newer than TLS 1.1 (or 1.0) is refused in the handshake. Probed with OpenSSL's
 * {@code s_client}, which can still offer the old versions (the JDK's own client refuses to); skipped
 * with a message where {@code openssl} is not installed.
 */
class MinimumTlsVersionTest {

    private static EmbeddedApiServer server;

    @BeforeAll
    static void start() {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/openssl")),
                "openssl is not installed at /usr/bin/openssl: TLS versions not probed");
        server = EmbeddedApiServer.start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Runs {@code openssl s_client} against the server with {@code flags}; its exit code and output. */
    private static Probe probe(String... flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "/usr/bin/openssl",
                "s_client",
                "-connect",
                server.url().getHost() + ":" + server.url().getPort(),
                "-brief",
                // let OpenSSL offer the old versions at all
                "-cipher",
                "DEFAULT@SECLEVEL=0"));
        command.addAll(List.of(flags));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close(); // nothing to send: the handshake is the point
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Probe(p.exitValue(), out);
    }

    private record Probe(int exit, String output) {}

    @Test
    void tls12AndTls13HandshakesSucceed() throws Exception {
        Probe v12 = probe("-tls1_2");
        assertThat(v12.exit()).as(v12.output()).isZero();
        assertThat(v12.output()).contains("Protocol version: TLSv1.2");
        Probe v13 = probe("-tls1_3");
        assertThat(v13.exit()).as(v13.output()).isZero();
        assertThat(v13.output()).contains("Protocol version: TLSv1.3");
    }

    @Test
    void clientsOfferingOnlyTls11OrTls10AreRefused() throws Exception {
        for (String old : List.of("-tls1_1", "-tls1")) {
            Probe p = probe(old);
            assertThat(p.exit()).as(old + ": " + p.output()).isNotZero();
            assertThat(p.output()).as(old).doesNotContain("Protocol version: TLSv1.1", "Protocol version: TLSv1\n");
        }
    }
}
