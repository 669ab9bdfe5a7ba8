package io.kubeloop.apiserver.internal.tls;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * TLS material kept in a directory across runs: {@code ca.crt} + {@code ca.key} (the CA) and
 * {@code server.crt} + {@code server.key} (the serving certificate and its key). Certificates are PEM;
 * keys are unencrypted PKCS#8 PEM ({@code PRIVATE KEY}). Every file is created owner-only (0600) in a
 * directory created 0700 ({@link PrivateFiles}), written to a temporary name, forced and renamed, so a
 * crash leaves either the old or the new file.
 *
 * <p>Stateless; not safe for two processes creating material in one directory at the same time (the
 * data directory's write-ahead-log lock, taken first, prevents that).
 */
final class PkiDirectory {

    /** A server certificate that expires sooner than this is re-issued at start. */
    static final Duration RENEW_BEFORE = Duration.ofDays(30);

    private PkiDirectory() {}

    static TlsMaterial loadOrCreate(Path dir) {
        Path caCrt = dir.resolve("ca.crt");
        Path caKey = dir.resolve("ca.key");
        Path serverCrt = dir.resolve("server.crt");
        Path serverKey = dir.resolve("server.key");
        try {
            createPrivateDirectory(dir);
            CertificateAuthority ca;
            if (Files.exists(caCrt) || Files.exists(caKey)) {
                if (!Files.exists(caCrt) || !Files.exists(caKey)) {
                    throw new IllegalStateException("incomplete CA in " + dir + ": need both ca.crt and ca.key");
                }
                ca = new CertificateAuthority(readKey(caKey), readCertificate(caCrt));
            } else {
                ca = CertificateAuthority.generate();
                writeFile(caKey, keyPem(ca.privateKey()));
                writeFile(caCrt, TlsMaterial.pem(ca.certificate()));
            }
            if (Files.exists(serverCrt) && Files.exists(serverKey)) {
                X509Certificate cert = readCertificate(serverCrt);
                if (usable(cert, ca)) {
                    return TlsMaterial.of(ca, readKey(serverKey), cert);
                }
            }
            CertificateAuthority.Issued issued = ca.issueServer();
            writeFile(serverKey, keyPem(issued.privateKey()));
            writeFile(serverCrt, TlsMaterial.pem(issued.certificate()));
            return TlsMaterial.of(ca, issued.privateKey(), issued.certificate());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write TLS material in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Signed by {@code ca} and valid for at least {@link #RENEW_BEFORE}. */
    private static boolean usable(X509Certificate cert, CertificateAuthority ca) {
        try {
            cert.verify(ca.certificate().getPublicKey());
            return cert.getNotAfter().toInstant().isAfter(Instant.now().plus(RENEW_BEFORE));
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static void createPrivateDirectory(Path dir) throws IOException {
        PrivateFiles.createDirectories(dir);
    }

    static X509Certificate readCertificate(Path file) throws IOException {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(file)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("invalid certificate " + file + ": " + e.getMessage(), e);
        }
    }

    static PrivateKey readKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(
                    "invalid private key " + file + ": expected a PKCS#8 PEM block " + "(BEGIN PRIVATE KEY)");
        }
        String base64 = text.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end)
                .replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("invalid private key " + file + ": " + e.getMessage(), e);
        }
    }

    static String keyPem(PrivateKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    /** Writes atomically (temporary file, force, rename), owner-only (0600). */
    static void writeFile(Path file, String content) throws IOException {
        PrivateFiles.write(file, content.getBytes(StandardCharsets.US_ASCII));
    }
}
