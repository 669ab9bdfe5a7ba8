package io.kubeloop.client.config;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X962Parameters;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/** Test PKI built with BouncyCastle: a CA, server and client certificates, PEM encodings. */
final class TestPki {

    /** A certificate with its key pair. */
    record Issued(X509Certificate certificate, KeyPair keys) {

        String certificatePem() {
            return pem(certificate);
        }

        /**
         * PKCS#1 ({@code RSA PRIVATE KEY}), or for EC what {@code openssl ecparam -genkey} prints:
         * an {@code EC PARAMETERS} block, then SEC1 ({@code EC PRIVATE KEY}) with curve and public key.
         */
        String traditionalKeyPem() {
            if (!(keys.getPrivate() instanceof ECPrivateKey ec)) {
                return pem(keys.getPrivate());
            }
            try {
                X962Parameters curve = new X962Parameters(SECObjectIdentifiers.secp256r1);
                SubjectPublicKeyInfo spki =
                        SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded());
                var sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256, ec.getS(), spki.getPublicKeyData(), curve);
                StringWriter out = new StringWriter();
                try (PemWriter writer = new PemWriter(out)) {
                    writer.writeObject(new PemObject("EC PARAMETERS", curve.getEncoded()));
                    writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
                }
                return out.toString();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** PKCS#8 ({@code PRIVATE KEY}). */
        String pkcs8KeyPem() {
            return "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes())
                            .encodeToString(keys.getPrivate().getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
        }
    }

    private final AtomicLong serial = new AtomicLong(1);

    static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair ec() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A CA with an EC key (fast to generate; RSA is used only where a test needs an RSA key). */
    Issued ca(String commonName) {
        KeyPair keys = ec();
        return new Issued(build(commonName, keys, commonName, keys, true, List.of(), List.of(), null), keys);
    }

    Issued server(Issued ca, List<String> dnsNames, List<String> ips) {
        KeyPair keys = ec();
        return new Issued(
                build("server", keys, name(ca), ca.keys, false, dnsNames, ips, KeyPurposeId.id_kp_serverAuth), keys);
    }

    Issued client(Issued ca, String commonName, KeyPair keys) {
        return new Issued(
                build(commonName, keys, name(ca), ca.keys, false, List.of(), List.of(), KeyPurposeId.id_kp_clientAuth),
                keys);
    }

    private static String name(Issued ca) {
        return ca.certificate.getSubjectX500Principal().getName().replace("CN=", "");
    }

    private X509Certificate build(
            String subject,
            KeyPair subjectKeys,
            String issuer,
            KeyPair issuerKeys,
            boolean isCa,
            List<String> dnsNames,
            List<String> ips,
            KeyPurposeId purpose) {
        try {
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    new X500Name("CN=" + issuer),
                    BigInteger.valueOf(serial.getAndIncrement()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    new X500Name("CN=" + subject),
                    subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            if (isCa) {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(
                        Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            }
            List<GeneralName> sans = new ArrayList<>();
            dnsNames.forEach(dns -> sans.add(new GeneralName(GeneralName.dNSName, dns)));
            ips.forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
            if (!sans.isEmpty()) {
                builder.addExtension(
                        Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
            String algorithm =
                    issuerKeys.getPrivate().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKeys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }
}
