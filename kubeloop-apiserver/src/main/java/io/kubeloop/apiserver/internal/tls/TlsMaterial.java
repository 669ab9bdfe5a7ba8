package io.kubeloop.apiserver.internal.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * A CA and a server certificate it signed (EC P-256), valid for {@code 127.0.0.1}, {@code ::1} and
 * {@code localhost} — what kubectl and Java clients need to verify the embedded server. Either generated
 * per run ({@link #generate()}) or kept in a directory across runs ({@link #persistent(Path)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param caCertificate the CA certificate clients trust
 * @param caKey the CA's private key: it signs client certificates ({@link #issueClient}) and the server's
 *     ServiceAccount tokens, whose signatures are checked against {@code caCertificate}'s public key
 * @param serverKeyStore PKCS#12 key store with the server key and chain under alias {@code server}
 * @param keyStorePassword its password
 */
public record TlsMaterial(
        X509Certificate caCertificate, PrivateKey caKey, KeyStore serverKeyStore, char[] keyStorePassword) {

    /** Generates a new CA (valid 10 years) and server certificate (valid 1 year), kept in memory only. */
    public static TlsMaterial generate() {
        CertificateAuthority ca = CertificateAuthority.generate();
        CertificateAuthority.Issued server = ca.issueServer();
        return of(ca, server.privateKey(), server.certificate());
    }

    /**
     * The CA and server certificate kept in {@code directory} ({@code ca.crt}, {@code ca.key},
     * {@code server.crt}, {@code server.key}; PEM, private keys PKCS#8 readable by the owner only):
     * created there on first use, loaded afterwards, so kubeconfigs naming the CA stay valid across
     * restarts. The server certificate is re-issued by the same CA when it expires within 30 days.
     *
     * @throws java.io.UncheckedIOException when the files cannot be read or written
     * @throws IllegalStateException when the directory holds invalid or incomplete material
     */
    public static TlsMaterial persistent(Path directory) {
        return PkiDirectory.loadOrCreate(directory);
    }

    static TlsMaterial of(CertificateAuthority ca, PrivateKey serverKey, X509Certificate serverCert) {
        X509Certificate caCert = ca.certificate();
        try {
            char[] password = Long.toHexString(new SecureRandom().nextLong()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setEntry(
                    "server",
                    new KeyStore.PrivateKeyEntry(serverKey, new X509Certificate[] {serverCert, caCert}),
                    InMemoryKeyProtection.of(password));
            return new TlsMaterial(caCert, ca.privateKey(), ks, password);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the server key store: " + e.getMessage(), e);
        }
    }

    /**
     * A client certificate signed by this CA for user {@code commonName} in groups {@code organizations}
     * (kube-apiserver's x509 authentication reads CN as the user and each O as a group), valid for
     * {@code validity}, with its private key: both PEM.
     */
    public ClientCertificate issueClient(String commonName, List<String> organizations, Duration validity) {
        CertificateAuthority.Issued issued =
                new CertificateAuthority(caKey, caCertificate).issueClient(commonName, organizations, validity);
        return new ClientCertificate(pem(issued.certificate()), PkiDirectory.keyPem(issued.privateKey()));
    }

    /**
     * A serving certificate signed by this CA for {@code localhost}, {@code 127.0.0.1}, {@code ::1} and
     * {@code dnsNames} (valid a year), with its private key (PKCS#8): both PEM. For webhook servers in tests.
     */
    public ClientCertificate issueServing(List<String> dnsNames) {
        CertificateAuthority.Issued issued = new CertificateAuthority(caKey, caCertificate).issueServer(dnsNames);
        return new ClientCertificate(pem(issued.certificate()), PkiDirectory.keyPem(issued.privateKey()));
    }

    /** A certificate and its private key, PEM. */
    public record ClientCertificate(String certificatePem, String privateKeyPem) {}

    /** A trust store holding the CA certificate alone (client certificates must chain to it). */
    public KeyStore caTrustStore() {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setCertificateEntry("ca", caCertificate);
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the CA trust store: " + e.getMessage(), e);
        }
    }

    /** The CA certificate as PEM text. */
    public String caPem() {
        return pem(caCertificate);
    }

    static String pem(Object o) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }
}
