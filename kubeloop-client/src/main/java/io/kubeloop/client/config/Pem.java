package io.kubeloop.client.config;

import java.io.IOException;
import java.io.StringReader;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * PEM decoding with BouncyCastle's {@link PEMParser}: certificates (several per input) and private
 * keys — RSA as PKCS#1 ({@code RSA PRIVATE KEY}) or PKCS#8 ({@code PRIVATE KEY}), EC as SEC1
 * ({@code EC PRIVATE KEY}, optionally preceded by {@code EC PARAMETERS}) or PKCS#8. Keys come out
 * as the JDK's own key types (no BouncyCastle provider is registered). Encrypted keys are rejected,
 * as client-go rejects them.
 *
 * <p>Stateless and thread-safe. Errors are {@link IllegalArgumentException}s with a short message
 * that callers prefix with the file and field.
 */
final class Pem {

    private Pem() {}

    /** All certificates in {@code pem}; at least one. */
    static List<X509Certificate> certificates(String pem) {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof X509CertificateHolder holder) {
                    certs.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new IllegalArgumentException("invalid PEM certificate: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IllegalArgumentException("no PEM certificate found");
        }
        return List.copyOf(certs);
    }

    /** The first private key in {@code pem}. */
    static PrivateKey privateKey(String pem) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        boolean encrypted = false;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof PEMKeyPair pair) {
                    // the private part only: SEC1 keys may omit the optional public key
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (item instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                encrypted |= item instanceof PEMEncryptedKeyPair || item instanceof PKCS8EncryptedPrivateKeyInfo;
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("invalid PEM private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(
                encrypted ? "encrypted private keys are not supported" : "no PEM private key found");
    }
}
