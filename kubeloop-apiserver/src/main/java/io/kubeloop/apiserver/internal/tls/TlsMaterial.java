package io.kubeloop.apiserver.internal.tls;

import java.io.StringWriter;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * A CA and a server certificate it signed (EC P-256), valid for {@code 127.0.0.1}, {@code ::1} and
 * {@code localhost} — what kubectl and Java clients need to verify the embedded server. Either generated
 * per run ({@link #generate()}) or kept in a directory across runs ({@link #persistent(Path)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param caCertificate the CA certificate clients trust
 * @param serverKeyStore PKCS#12 key store with the server key and chain under alias {@code server}
 * @param keyStorePassword its password
 */
public record TlsMaterial(X509Certificate caCertificate, KeyStore serverKeyStore, char[] keyStorePassword) {

    /** Generates a new CA (valid 10 years) and server certificate (valid 1 year), kept in memory only. */
    public static TlsMaterial generate() {
        CertificateAuthority ca = CertificateAuthority.generate();
        CertificateAuthority.Issued server = ca.issueServer();
        return of(ca.certificate(), server.privateKey(), server.certificate());
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

    static TlsMaterial of(X509Certificate caCert, PrivateKey serverKey, X509Certificate serverCert) {
        try {
            char[] password = Long.toHexString(new SecureRandom().nextLong()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", serverKey, password, new X509Certificate[] {serverCert, caCert});
            return new TlsMaterial(caCert, ks, password);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot build the server key store: " + e.getMessage(), e);
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
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }
}
