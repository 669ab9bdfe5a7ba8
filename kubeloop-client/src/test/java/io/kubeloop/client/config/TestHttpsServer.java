package io.kubeloop.client.config;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK's built-in HTTPS server on loopback, answering every request with the subject of the
 * client certificate the client presented (or "anonymous").
 */
final class TestHttpsServer implements AutoCloseable {

    private final HttpsServer server;

    TestHttpsServer(TestPki.Issued serverCert, X509Certificate clientCa, boolean needClientAuth) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry(
                "server", serverCert.keys().getPrivate(), new char[0], new Certificate[] {serverCert.certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("client-ca", clientCa);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                if (needClientAuth) {
                    parameters.setNeedClientAuth(true);
                } else {
                    parameters.setWantClientAuth(true);
                }
                params.setSSLParameters(parameters);
            }
        });
        server.createContext("/", exchange -> {
            String who;
            try {
                who = ((X509Certificate)
                                ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0])
                        .getSubjectX500Principal()
                        .getName();
            } catch (SSLPeerUnverifiedException e) {
                who = "anonymous";
            }
            byte[] body = who.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** GET {@code https://<host>:<port>/} with the JDK HttpClient; returns the body. */
    String get(SSLContext sslContext, String host) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder()
                .sslContext(sslContext)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://" + host + ":" + port() + "/"))
                    .timeout(Duration.ofSeconds(10))
                    .build();
            return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
