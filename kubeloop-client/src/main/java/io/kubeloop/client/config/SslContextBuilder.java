package io.kubeloop.client.config;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds the client {@link SSLContext} for one API server, the way client-go configures TLS:
 *
 * <ul>
 *   <li>Trust: the given CA certificates only; or, with none given, the JDK's default trust store;
 *       or {@link #insecureSkipTlsVerify()} — any certificate, no name check (combining it with CAs
 *       is an error, as in kubectl).
 *   <li>Name check: the server certificate's subject alternative names must match
 *       {@link #tlsServerName(String)} when set, else the host connected to (Go's rules: IPs match
 *       IP SANs, {@code *.} wildcards one label, the common name is ignored). This is done by the
 *       context's own trust manager, so it holds whatever endpoint-identification setting the HTTP
 *       client uses.
 *   <li>Client certificate: fixed, or asked for at each handshake from a supplier (exec plugins), so
 *       rotated certificates are used by new connections.
 *   <li>Protocols: TLS 1.2 and 1.3 only.
 * </ul>
 *
 * <p>{@snippet :
 * SSLContext ssl = SslContextBuilder.create()
 *         .trustPem(caPem)
 *         .clientCredentials(ClientCredentials.fromPem(certPem, keyPem))
 *         .build();
 * }
 *
 * <p>A builder is not thread-safe; the contexts it builds are.
 */
public final class SslContextBuilder {

    private List<X509Certificate> trusted = List.of();
    private boolean insecure;
    private String tlsServerName;
    private Supplier<Optional<ClientCredentials>> clientCredentials;

    private SslContextBuilder() {}

    /** A builder for a context that trusts the JDK's default CAs and presents no certificate. */
    public static SslContextBuilder create() {
        return new SslContextBuilder();
    }

    /** Trust exactly these CA certificates (replacing earlier ones). */
    public SslContextBuilder trustCertificates(List<X509Certificate> caCertificates) {
        this.trusted = List.copyOf(caCertificates);
        return this;
    }

    /**
     * Trust the CA certificates in this PEM text (one or more).
     *
     * @throws IllegalArgumentException when it holds no valid certificate
     */
    public SslContextBuilder trustPem(String caPem) {
        return trustCertificates(Pem.certificates(caPem));
    }

    /** Accept any server certificate without checking its name. */
    public SslContextBuilder insecureSkipTlsVerify() {
        this.insecure = true;
        return this;
    }

    /** Verify the server certificate against this name instead of the host connected to; null to unset. */
    public SslContextBuilder tlsServerName(String name) {
        this.tlsServerName = name == null || name.isEmpty() ? null : name;
        return this;
    }

    /** Present this client certificate. */
    public SslContextBuilder clientCredentials(ClientCredentials credentials) {
        Optional<ClientCredentials> fixed = Optional.of(credentials);
        this.clientCredentials = () -> fixed;
        return this;
    }

    /**
     * Present whatever certificate {@code source} returns at each full handshake (none when empty).
     * The supplier must be thread-safe and fast when nothing changed.
     *
     * <p>A resumed TLS session keeps the identity it was established with and never asks again; when
     * the source's certificate changes, call {@link #invalidateSessions(SSLContext)} (the exec plugin
     * wiring does) so that new connections do a full handshake. Open connections are not affected.
     */
    public SslContextBuilder clientCredentials(Supplier<Optional<ClientCredentials>> source) {
        this.clientCredentials = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Builds the context.
     *
     * @throws IllegalStateException when insecure mode is combined with CA certificates, or the JDK
     *         cannot provide TLS
     */
    public SSLContext build() {
        if (insecure && !trusted.isEmpty()) {
            throw new IllegalStateException(
                    "specifying root certificates together with insecure-skip-tls-verify is not allowed");
        }
        try {
            TrustManager trust = insecure
                    ? new InsecureTrustManager()
                    : new VerifyingTrustManager(chainVerifier(trusted), tlsServerName);
            KeyManager[] keys = clientCredentials == null
                    ? null
                    : new KeyManager[] {new ClientCertificateKeyManager(clientCredentials)};
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, new TrustManager[] {trust}, null);
            return new MinimumTlsContext(context);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create the TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * Invalidates every cached client session of {@code context}, so that the next connection does a
     * full handshake and presents the current client certificate.
     */
    public static void invalidateSessions(SSLContext context) {
        SSLSessionContext sessions = context.getClientSessionContext();
        for (byte[] id : Collections.list(sessions.getIds())) {
            SSLSession session = sessions.getSession(id);
            if (session != null) {
                session.invalidate();
            }
        }
    }

    private static X509ExtendedTrustManager chainVerifier(List<X509Certificate> cas)
            throws GeneralSecurityException, IOException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (cas.isEmpty()) {
            factory.init((KeyStore) null);
        } else {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            factory.init(store);
        }
        for (TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager extended) {
                return extended;
            }
        }
        throw new IllegalStateException("the JDK's default TrustManagerFactory offers no X509ExtendedTrustManager");
    }
}
