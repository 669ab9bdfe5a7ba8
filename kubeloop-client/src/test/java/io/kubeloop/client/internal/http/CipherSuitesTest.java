package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CipherSuitesTest {

    @Test
    void chaCha20SuitesMoveToTheFrontAndEverythingElseKeepsItsOrder() {
        String[] jdk = {
            "TLS_AES_256_GCM_SHA384",
            "TLS_AES_128_GCM_SHA256",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
        };
        assertThat(CipherSuites.chaCha20First(jdk))
                .containsExactly(
                        "TLS_CHACHA20_POLY1305_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
                        "TLS_AES_256_GCM_SHA384",
                        "TLS_AES_128_GCM_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
                        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
    }

    @Test
    void withoutChaCha20TheOfferIsUnchanged() {
        String[] fips = {"TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256"};
        assertThat(CipherSuites.chaCha20First(fips)).containsExactly(fips);
    }
}
