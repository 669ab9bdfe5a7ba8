package io.kubeloop.client.config;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A TLS client certificate chain (leaf first) and its private key, as presented to the API server.
 *
 * <p>Immutable and thread-safe.
 *
 * @param certificateChain the leaf certificate followed by any intermediates; not empty
 * @param privateKey the leaf's private key (RSA or EC)
 */
public record ClientCredentials(List<X509Certificate> certificateChain, PrivateKey privateKey) {

    public ClientCredentials {
        certificateChain = List.copyOf(certificateChain);
        if (certificateChain.isEmpty()) {
            throw new IllegalArgumentException("certificateChain is empty");
        }
        Objects.requireNonNull(privateKey, "privateKey");
    }

    /**
     * Parses PEM text: certificates (leaf first) and a private key (PKCS#1, SEC1 or PKCS#8).
     *
     * @throws IllegalArgumentException when either cannot be parsed; the message says which
     */
    public static ClientCredentials fromPem(String certificatePem, String privateKeyPem) {
        List<X509Certificate> chain;
        try {
            chain = Pem.certificates(certificatePem);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("client certificate: " + e.getMessage(), e);
        }
        PrivateKey key;
        try {
            key = Pem.privateKey(privateKeyPem);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("client key: " + e.getMessage(), e);
        }
        return new ClientCredentials(chain, key);
    }

    /** The leaf certificate. */
    public X509Certificate leaf() {
        return certificateChain.getFirst();
    }

    @Override
    public String toString() {
        return "ClientCredentials[subject=" + leaf().getSubjectX500Principal() + ", key=" + privateKey.getAlgorithm()
                + "]";
    }
}
