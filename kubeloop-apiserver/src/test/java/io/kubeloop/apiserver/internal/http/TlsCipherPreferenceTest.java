package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded server lets the client's cipher-suite preference decide, as kube-apiserver (Go) does. */
class TlsCipherPreferenceTest {

    private static EmbeddedApiServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String negotiated(List<String> suitesInOrder) throws IOException {
        try (SSLSocket s = (SSLSocket) server.clientConfig()
                .sslContext()
                .getSocketFactory()
                .createSocket(server.url().getHost(), server.url().getPort())) {
            s.setEnabledProtocols(new String[] {"TLSv1.3"});
            s.setEnabledCipherSuites(suitesInOrder.toArray(String[]::new));
            s.startHandshake();
            return s.getSession().getCipherSuite();
        }
    }

    private static List<String> tls13Suites() throws IOException {
        try (SSLSocket s = (SSLSocket)
                server.clientConfig().sslContext().getSocketFactory().createSocket()) {
            return new ArrayList<>(Arrays.stream(s.getEnabledCipherSuites())
                    .filter(c -> c.startsWith("TLS_AES_") || c.startsWith("TLS_CHACHA20_"))
                    .toList());
        }
    }

    /** The suite negotiated when {@code first} leads the client's TLS 1.3 suites. */
    private static String negotiatedWhenListedFirst(String first) throws IOException {
        List<String> suites = tls13Suites();
        suites.remove(first);
        suites.addFirst(first);
        return negotiated(suites);
    }

    @Test
    void aClientListingChaCha20FirstGetsChaCha20() throws IOException {
        assertThat(negotiatedWhenListedFirst("TLS_CHACHA20_POLY1305_SHA256")).isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
    }

    @Test
    void aClientListingAesGcmFirstGetsAesGcm() throws IOException {
        assertThat(negotiatedWhenListedFirst("TLS_AES_128_GCM_SHA256")).isEqualTo("TLS_AES_128_GCM_SHA256");
    }
}
