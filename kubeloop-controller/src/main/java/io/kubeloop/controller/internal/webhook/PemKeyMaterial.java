package io.kubeloop.controller.internal.webhook;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key store made from PEM files as Kubernetes hands them to Pods ({@code tls.crt}: the certificate
 * chain; {@code tls.key}: a PKCS#8 {@code PRIVATE KEY}, or a PKCS#1 {@code RSA PRIVATE KEY} as
 * cert-manager writes by default). Stateless.
 */
public final class PemKeyMaterial {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]+)-----END \\1-----");
    /** The DER AlgorithmIdentifier of rsaEncryption with NULL parameters. */
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
    };

    private PemKeyMaterial() {}

    /**
     * A PKCS#12 key store holding the key and chain under alias {@code tls}, password {@code password}.
     *
     * @throws IOException when a file cannot be read
     * @throws GeneralSecurityException when the PEM does not hold a usable certificate and key
     */
    public static KeyStore keyStore(Path certFile, Path keyFile, char[] password)
            throws IOException, GeneralSecurityException {
        List<? extends Certificate> chain = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certFile)))
                .stream()
                .toList();
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate in " + certFile);
        }
        PrivateKey key = privateKey(Files.readString(keyFile));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("tls", key, password, chain.toArray(new Certificate[0]));
        return ks;
    }

    static PrivateKey privateKey(String pem) throws GeneralSecurityException {
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            switch (m.group(1)) {
                case "PRIVATE KEY" -> {
                    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
                        try {
                            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
                        } catch (GeneralSecurityException e) {
                            // the next algorithm
                        }
                    }
                    throw new GeneralSecurityException("unsupported PKCS#8 private key");
                }
                case "RSA PRIVATE KEY" -> {
                    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(rsaPkcs8(der)));
                }
                default -> {
                    // not a key block
                }
            }
        }
        throw new GeneralSecurityException("no PRIVATE KEY or RSA PRIVATE KEY block");
    }

    /** PKCS#1 RSAPrivateKey wrapped as PKCS#8: SEQUENCE { 0, rsaEncryption, OCTET STRING { key } }. */
    private static byte[] rsaPkcs8(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = tlv(0x04, pkcs1);
        byte[] body = new byte[version.length + RSA_ALGORITHM.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(RSA_ALGORITHM, 0, body, version.length, RSA_ALGORITHM.length);
        System.arraycopy(octets, 0, body, version.length + RSA_ALGORITHM.length, octets.length);
        return tlv(0x30, body);
    }

    private static byte[] tlv(int tag, byte[] value) {
        int n = value.length;
        byte[] length = n < 0x80
                ? new byte[] {(byte) n}
                : n < 0x100
                        ? new byte[] {(byte) 0x81, (byte) n}
                        : n < 0x10000
                                ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                                : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + length.length + n];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(value, 0, out, 1 + length.length, n);
        return out;
    }
}
