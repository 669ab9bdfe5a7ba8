package io.kubeloop.apiserver.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.JsonNode;

/**
 * An HTTPS server on 127.0.0.1 answering webhook calls in tests, with a certificate of its own CA
 * ({@link #caBundle()} is what a webhook configuration trusts). Each path answers with a function of
 * the request body; every request body is recorded.
 */
final class TestWebhookServer implements AutoCloseable {

    private final HttpsServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final String caBundle;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    TestWebhookServer() throws Exception {
        this(List.of());
    }

    /** A server whose certificate also names {@code dnsNames} (e.g. a Service's, {@code svc.ns.svc}). */
    TestWebhookServer(List<String> dnsNames) throws Exception {
        TlsMaterial tls = TlsMaterial.generate();
        caBundle = Base64.getEncoder().encodeToString(tls.caPem().getBytes(StandardCharsets.UTF_8));
        TlsMaterial.ClientCertificate issued = tls.issueServing(dnsNames);
        Certificate cert = CertificateFactory.getInstance("X.509")
                .generateCertificate(
                        new ByteArrayInputStream(issued.certificatePem().getBytes(StandardCharsets.UTF_8)));
        byte[] der = Base64.getMimeDecoder().decode(issued.privateKeyPem().replaceAll("-----[A-Z ]+-----", ""));
        PrivateKey key = KeyFactory.getInstance(cert.getPublicKey().getAlgorithm())
                .generatePrivate(new PKCS8EncodedKeySpec(der));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] password = "test".toCharArray();
        ks.setKeyEntry("tls", key, password, new Certificate[] {cert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        server.setExecutor(executor);
        server.start();
    }

    /** Answers POSTs to {@code path} with {@code answer} of the request body. */
    void handle(String path, UnaryOperator<JsonNode> answer) {
        server.createContext(path, e -> respond(e, answer));
    }

    private void respond(HttpExchange e, UnaryOperator<JsonNode> answer) throws IOException {
        JsonNode body = KubeJson.mapper().readTree(e.getRequestBody().readAllBytes());
        requests.add(body);
        byte[] out = KubeJson.mapper().writeValueAsBytes(answer.apply(body));
        e.getResponseHeaders().add("Content-Type", "application/json");
        e.sendResponseHeaders(200, out.length);
        e.getResponseBody().write(out);
        e.close();
    }

    /** The base64 PEM of the CA that signed the server's certificate. */
    String caBundle() {
        return caBundle;
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String path) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The request bodies received so far. */
    List<JsonNode> requests() {
        return requests;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
