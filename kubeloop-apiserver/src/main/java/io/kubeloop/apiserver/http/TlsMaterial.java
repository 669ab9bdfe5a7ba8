package io.kubeloop.apiserver.http;

import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A freshly generated CA and a server certificate it signed (EC P-256), valid for {@code 127.0.0.1},
 * {@code ::1} and {@code localhost} — what kubectl and Java clients need to verify the embedded server.
 *
 * <p>Immutable and thread-safe.
 *
 * @param caCertificate the CA certificate clients trust
 * @param serverKeyStore PKCS#12 key store with the server key and chain under alias {@code server}
 * @param keyStorePassword its password
 */
public record TlsMaterial(X509Certificate caCertificate, KeyStore serverKeyStore, char[] keyStorePassword) {

    /** Generates a new CA (valid 10 years) and server certificate (valid 1 year). */
    public static TlsMaterial generate() {
        try {
            SecureRandom random = new SecureRandom();
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), random);
            KeyPair caKeys = gen.generateKeyPair();
            Instant now = Instant.now().minus(Duration.ofMinutes(5));
            X500Name caName = new X500Name("CN=kubeloop-ca");
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, new BigInteger(64, random),
                    Date.from(now), Date.from(now.plus(Duration.ofDays(3650))), caName, caKeys.getPublic());
            ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign
                    | KeyUsage.digitalSignature));
            X509Certificate caCert = sign(ca, caKeys);

            KeyPair serverKeys = gen.generateKeyPair();
            X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caName, new BigInteger(64, random),
                    Date.from(now), Date.from(now.plus(Duration.ofDays(365))), new X500Name("CN=kubeloop-apiserver"),
                    serverKeys.getPublic());
            server.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            server.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                    | KeyUsage.keyEncipherment));
            server.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            server.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.iPAddress, InetAddress.getByName("::1").getHostAddress())}));
            X509Certificate serverCert = sign(server, caKeys);

            char[] password = Long.toHexString(random.nextLong()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", serverKeys.getPrivate(), password, new X509Certificate[] {serverCert, caCert});
            return new TlsMaterial(caCert, ks, password);
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot generate TLS material: " + e.getMessage(), e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    /** The CA certificate as PEM text. */
    public String caPem() {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(caCertificate);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }
}
