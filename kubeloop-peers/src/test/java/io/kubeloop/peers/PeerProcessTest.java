package io.kubeloop.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

class PeerProcessTest {

    @Test
    void fabric8MockServesCrudOverHttpsAndStopsOnClose() throws Exception {
        PeerProcess peer;
        try (PeerProcess p = PeerProcess.startFabric8Mock()) {
            peer = p;
            assertThat(p.url().getScheme()).isEqualTo("https");
            HttpClient http = HttpClient.newBuilder().sslContext(trustAll()).build();
            String cm =
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c1\"},\"data\":{\"k\":\"v\"}}";
            HttpResponse<String> created = http.send(
                    HttpRequest.newBuilder(p.url().resolve("/api/v1/namespaces/default/configmaps"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(cm))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).isEqualTo(201);
            HttpResponse<String> got = http.send(
                    HttpRequest.newBuilder(p.url().resolve("/api/v1/namespaces/default/configmaps/c1"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).contains("\"k\":\"v\"");
        }
        assertThat(peer.process().isAlive()).isFalse();
    }

    private static SSLContext trustAll() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(
                null,
                new TrustManager[] {
                    new X509TrustManager() {
                        @Override
                        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public X509Certificate[] getAcceptedIssuers() {
                            return new X509Certificate[0];
                        }
                    }
                },
                new SecureRandom());
        return ctx;
    }
}
