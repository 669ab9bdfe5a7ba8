package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real TLS: the JDK HttpsServer on loopback and java.net.http.HttpClient with contexts we build. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsTest {

    private final TestPki pki = new TestPki();
    private TestPki.Issued ca;
    private TestPki.Issued otherCa;
    private TestPki.Issued rsaClient;
    private TestPki.Issued ecClient;
    private TestHttpsServer server; // SANs localhost + 127.0.0.1, requires a client certificate
    private TestHttpsServer misnamedServer; // SAN api.internal.example only, client certificate optional

    @BeforeAll
    void start() throws Exception {
        ca = pki.ca("test-ca");
        otherCa = pki.ca("other-ca");
        rsaClient = pki.client(ca, "alice", TestPki.rsa());
        ecClient = pki.client(ca, "erin", TestPki.ec());
        server =
                new TestHttpsServer(pki.server(ca, List.of("localhost"), List.of("127.0.0.1")), ca.certificate(), true);
        misnamedServer = new TestHttpsServer(
                pki.server(ca, List.of("api.internal.example"), List.of()), ca.certificate(), false);
    }

    @AfterAll
    void stop() {
        server.close();
        misnamedServer.close();
    }

    private SslContextBuilder trustingCa() {
        return SslContextBuilder.create()
                .trustPem(ca.certificatePem())
                .clientCredentials(
                        ClientCredentials.fromPem(rsaClient.certificatePem(), rsaClient.traditionalKeyPem()));
    }

    @Test
    void trustedCaAndMatchingIpOrDnsSanConnects() throws Exception {
        SSLContext context = trustingCa().build();
        assertThat(server.get(context, "127.0.0.1")).isEqualTo("CN=alice");
        assertThat(server.get(context, "localhost")).isEqualTo("CN=alice");
    }

    @Test
    void serverSignedByAnotherCaIsRejected() {
        SSLContext context = SslContextBuilder.create()
                .trustPem(otherCa.certificatePem())
                .clientCredentials(ClientCredentials.fromPem(rsaClient.certificatePem(), rsaClient.pkcs8KeyPem()))
                .build();
        assertThatThrownBy(() -> server.get(context, "127.0.0.1"))
                .isInstanceOf(IOException.class)
                .hasStackTraceContaining("PKIX path");
    }

    @Test
    void hostNotInTheCertificateIsRejected() {
        SSLContext context = trustingCa().build();
        assertThatThrownBy(() -> misnamedServer.get(context, "127.0.0.1"))
                .isInstanceOf(IOException.class)
                .hasStackTraceContaining("server certificate is valid for api.internal.example, not 127.0.0.1");
    }

    @Test
    void tlsServerNameNamingASanIsAcceptedForAnyHost() throws Exception {
        SSLContext context = trustingCa().tlsServerName("api.internal.example").build();
        assertThat(misnamedServer.get(context, "127.0.0.1")).isEqualTo("CN=alice");
    }

    @Test
    void tlsServerNameNotInTheCertificateIsRejectedEvenWhenTheHostMatches() {
        SSLContext context = trustingCa().tlsServerName("elsewhere.example").build();
        assertThatThrownBy(() -> server.get(context, "127.0.0.1"))
                .isInstanceOf(IOException.class)
                .hasStackTraceContaining("not elsewhere.example");
    }

    @Test
    void insecureSkipsBothChainAndNameVerification() throws Exception {
        SSLContext context = SslContextBuilder.create().insecureSkipTlsVerify().build();
        assertThat(misnamedServer.get(context, "127.0.0.1")).isEqualTo("anonymous");
        SSLContext otherTrust = SslContextBuilder.create()
                .insecureSkipTlsVerify()
                .clientCredentials(ClientCredentials.fromPem(ecClient.certificatePem(), ecClient.pkcs8KeyPem()))
                .build();
        assertThat(server.get(otherTrust, "127.0.0.1")).isEqualTo("CN=erin");
    }

    @Test
    void insecureCombinedWithCaIsRejected() {
        assertThatThrownBy(() -> SslContextBuilder.create()
                        .trustPem(ca.certificatePem())
                        .insecureSkipTlsVerify()
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("insecure-skip-tls-verify");
    }

    @ParameterizedTest(name = "{0} key as {1}")
    @CsvSource({"RSA, traditional", "RSA, pkcs8", "EC, traditional", "EC, pkcs8"})
    void clientCertificateIsPresented(String type, String encoding) throws Exception {
        TestPki.Issued client = type.equals("RSA") ? rsaClient : ecClient;
        String keyPem = encoding.equals("pkcs8") ? client.pkcs8KeyPem() : client.traditionalKeyPem();
        assertThat(keyPem)
                .contains(
                        encoding.equals("pkcs8")
                                ? "BEGIN PRIVATE KEY"
                                : type.equals("RSA") ? "BEGIN RSA PRIVATE KEY" : "BEGIN EC PRIVATE KEY");
        SSLContext context = SslContextBuilder.create()
                .trustPem(ca.certificatePem())
                .clientCredentials(ClientCredentials.fromPem(client.certificatePem(), keyPem))
                .build();
        assertThat(server.get(context, "127.0.0.1")).isEqualTo(type.equals("RSA") ? "CN=alice" : "CN=erin");
    }

    @Test
    void serverRequiringAClientCertificateRejectsAClientWithout() {
        SSLContext context =
                SslContextBuilder.create().trustPem(ca.certificatePem()).build();
        assertThatThrownBy(() -> server.get(context, "127.0.0.1")).isInstanceOf(IOException.class);
    }

    @Test
    void clientCertificateSourceIsConsultedAtEachFullHandshake() throws Exception {
        ClientCredentials alice = ClientCredentials.fromPem(rsaClient.certificatePem(), rsaClient.traditionalKeyPem());
        ClientCredentials erin = ClientCredentials.fromPem(ecClient.certificatePem(), ecClient.traditionalKeyPem());
        AtomicReference<ClientCredentials> current = new AtomicReference<>(alice);
        SSLContext context = SslContextBuilder.create()
                .trustPem(ca.certificatePem())
                .clientCredentials(() -> Optional.of(current.get()))
                .build();
        assertThat(server.get(context, "127.0.0.1")).isEqualTo("CN=alice");
        current.set(erin);
        // A resumed session keeps its identity: that is why rotation must invalidate sessions.
        assertThat(server.get(context, "127.0.0.1")).isEqualTo("CN=alice");
        SslContextBuilder.invalidateSessions(context);
        assertThat(server.get(context, "127.0.0.1")).isEqualTo("CN=erin");
    }

    @Test
    void onlyTls12And13AreEnabled() {
        SSLContext context = trustingCa().build();
        assertThat(context.getDefaultSSLParameters().getProtocols())
                .isNotEmpty()
                .allMatch(p -> p.equals("TLSv1.2") || p.equals("TLSv1.3"));
        assertThat(context.createSSLEngine("localhost", 443).getEnabledProtocols())
                .allMatch(p -> p.equals("TLSv1.2") || p.equals("TLSv1.3"));
    }

    @Test
    void kubeconfigWithCaDataAndClientCertificateFilesConnects(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("client.crt"), ecClient.certificatePem());
        Files.writeString(dir.resolve("client.key"), ecClient.traditionalKeyPem());
        Path file = dir.resolve("config");
        Files.writeString(file, """
                current-context: test
                clusters:
                - name: test
                  cluster:
                    server: https://127.0.0.1:%d
                    certificate-authority-data: %s
                users:
                - name: erin
                  user:
                    client-certificate: client.crt
                    client-key: client.key
                contexts:
                - name: test
                  context: {cluster: test, user: erin}
                """.formatted(server.port(), base64(ca.certificatePem())));
        ClientConfig config = ClientConfig.fromKubeconfig(file);
        assertThat(server.get(config.sslContext(), "127.0.0.1")).isEqualTo("CN=erin");
        assertThat(config.auth().authorization()).isEmpty();
    }

    // --- The claim behind VerifyingTrustManager: JSSE leaves hostname checks to an X509ExtendedTrustManager.

    @Test
    void jsseDoesNoHostnameCheckWhenGivenAnExtendedTrustManager() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new InsecureTrustManager()}, null);
        // The HttpClient asks for HTTPS endpoint identification, yet the misnamed certificate passes.
        assertThat(misnamedServer.get(context, "127.0.0.1")).isEqualTo("anonymous");
    }

    @Test
    void jsseDoesCheckTheHostnameWhenGivenAPlainTrustManager() throws Exception {
        X509TrustManager trustAllPlain = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        assertThat(trustAllPlain).isNotInstanceOf(X509ExtendedTrustManager.class);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {trustAllPlain}, null);
        assertThatThrownBy(() -> misnamedServer.get(context, "127.0.0.1"))
                .isInstanceOf(IOException.class)
                .hasStackTraceContaining("No subject alternative names matching IP address 127.0.0.1");
    }

    @Test
    void verifyingTrustManagerChecksTheNameOnTheSocketPathToo() throws Exception {
        // Sockets (HttpsURLConnection) go through the Socket overload; it must verify names as well.
        SSLContext context = trustingCa().build();
        try (Socket socket = context.getSocketFactory().createSocket("127.0.0.1", misnamedServer.port())) {
            assertThatThrownBy(() -> ((SSLSocket) socket).startHandshake())
                    .isInstanceOf(IOException.class)
                    .hasStackTraceContaining("not 127.0.0.1");
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
