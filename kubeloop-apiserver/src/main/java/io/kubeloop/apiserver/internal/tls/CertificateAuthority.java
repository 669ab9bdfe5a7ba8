package io.kubeloop.apiserver.internal.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The embedded server's self-signed CA (EC P-256, {@code CN=kubeloop-ca}, valid 10 years) and the server
 * certificates it issues (valid 1 year for {@code localhost}, {@code 127.0.0.1} and {@code ::1}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param privateKey the CA's signing key
 * @param certificate the CA certificate clients trust
 */
record CertificateAuthority(PrivateKey privateKey, X509Certificate certificate) {

    /** How long an issued server certificate is valid. */
    static final Duration SERVER_VALIDITY = Duration.ofDays(365);

    /** A server key and the certificate the CA issued for it. */
    record Issued(PrivateKey privateKey, X509Certificate certificate) {}

    /** A new CA. */
    static CertificateAuthority generate() {
        try {
            SecureRandom random = new SecureRandom();
            KeyPair keys = keyPair(random);
            Instant now = Instant.now().minus(Duration.ofMinutes(5));
            X500Name name = new X500Name("CN=kubeloop-ca");
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(
                    name,
                    new BigInteger(64, random),
                    Date.from(now),
                    Date.from(now.plus(Duration.ofDays(3650))),
                    name,
                    keys.getPublic());
            ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            ca.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            return new CertificateAuthority(keys.getPrivate(), sign(ca, keys.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot generate the CA: " + e.getMessage(), e);
        }
    }

    /** A new server key and certificate signed by this CA, for localhost and its addresses. */
    Issued issueServer() {
        return issueServer(List.of());
    }

    /** A new server key and certificate signed by this CA, for localhost, its addresses and {@code dnsNames}. */
    Issued issueServer(List<String> dnsNames) {
        try {
            SecureRandom random = new SecureRandom();
            KeyPair keys = keyPair(random);
            Instant now = Instant.now().minus(Duration.ofMinutes(5));
            X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(
                    certificate,
                    new BigInteger(64, random),
                    Date.from(now),
                    Date.from(now.plus(SERVER_VALIDITY)),
                    new X500Name("CN=kubeloop-apiserver"),
                    keys.getPublic());
            server.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            server.addExtension(
                    Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            server.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            List<GeneralName> names = new ArrayList<>(List.of(
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(
                            GeneralName.iPAddress, InetAddress.getByName("::1").getHostAddress())));
            dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
            server.addExtension(
                    Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
            return new Issued(keys.getPrivate(), sign(server, privateKey));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot issue the server certificate: " + e.getMessage(), e);
        }
    }

    /** A new client key and certificate for user {@code commonName} in groups {@code organizations}. */
    Issued issueClient(String commonName, List<String> organizations, Duration validity) {
        try {
            SecureRandom random = new SecureRandom();
            KeyPair keys = keyPair(random);
            Instant now = Instant.now().minus(Duration.ofMinutes(5));
            X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
            for (String o : organizations) {
                subject.addRDN(BCStyle.O, o);
            }
            subject.addRDN(BCStyle.CN, commonName);
            X509v3CertificateBuilder client = new JcaX509v3CertificateBuilder(
                    certificate,
                    new BigInteger(64, random),
                    Date.from(now),
                    Date.from(now.plus(validity)),
                    subject.build(),
                    keys.getPublic());
            client.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            client.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            client.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
            return new Issued(keys.getPrivate(), sign(client, privateKey));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot issue a client certificate: " + e.getMessage(), e);
        }
    }

    private static KeyPair keyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"), random);
        return gen.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter()
                .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    }
}
