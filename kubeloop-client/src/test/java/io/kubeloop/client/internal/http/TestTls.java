package io.kubeloop.client.internal.http;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed server certificate for tests (SANs 127.0.0.1, localhost, kubernetes.local) and the
 * SSL contexts of both ends: the client's trusts exactly this certificate and verifies host names
 * with the JDK's own trust manager.
 */
public final class TestTls {

    public static final String ALT_NAME = "kubernetes.local";

    private final SSLContext serverContext;
    private final TrustManager[] clientTrust;
    private final X509Certificate certificate;

    private TestTls(SSLContext serverContext, TrustManager[] clientTrust, X509Certificate certificate) {
        this.serverContext = serverContext;
        this.clientTrust = clientTrust;
        this.certificate = certificate;
    }

    public static TestTls create() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(256);
            KeyPair keys = gen.generateKeyPair();
            X500Name name = new X500Name("CN=kubeloop-test");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    name,
                    BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    name,
                    keys.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.dNSName, ALT_NAME)
            }));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));

            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            keyStore.load(null, null);
            keyStore.setKeyEntry("server", keys.getPrivate(), new char[0], new X509Certificate[] {cert});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keyStore, new char[0]);
            SSLContext server = SSLContext.getInstance("TLS");
            server.init(kmf.getKeyManagers(), null, null);

            KeyStore trustStore = KeyStore.getInstance("PKCS12");
            trustStore.load(null, null);
            trustStore.setCertificateEntry("ca", cert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trustStore);
            return new TestTls(server, tmf.getTrustManagers(), cert);
        } catch (Exception e) {
            throw new IllegalStateException("cannot make test TLS material", e);
        }
    }

    public SSLContext serverContext() {
        return serverContext;
    }

    /**
     * A new client context trusting the server, each call: contexts share no TLS session cache, so
     * a connection made through a fresh one negotiates anew (its cipher suite included).
     */
    public SSLContext clientContext() {
        try {
            SSLContext client = SSLContext.getInstance("TLS");
            client.init(null, clientTrust, null);
            return client;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a client TLS context", e);
        }
    }

    /** The server's self-signed certificate, to trust through kubeloop's own TLS set-up. */
    public X509Certificate certificate() {
        return certificate;
    }
}
