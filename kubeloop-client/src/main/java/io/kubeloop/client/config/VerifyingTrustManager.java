package io.kubeloop.client.config;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Verifies the server: first the chain (with the delegate, against the configured CAs or the JDK's
 * default trust store), then the leaf certificate's subject alternative names against
 * {@code tls-server-name} when set, else the host the client connected to (the engine's peer host).
 *
 * <p>Why hostname checks happen here: JSSE performs endpoint identification itself only when it
 * wraps a plain {@code X509TrustManager}; an {@link X509ExtendedTrustManager} is trusted to do it,
 * and the JDK's own implementation would check the URI's host, which is wrong when
 * {@code tls-server-name} is set. So the delegate is called without the engine (chain only) and the
 * name is checked with {@link Hostnames}. {@code TlsTest} proves both halves of this claim.
 *
 * <p>Client-side only. Stateless after construction and thread-safe.
 */
final class VerifyingTrustManager extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager chainVerifier;
    private final String tlsServerName;

    /**
     * @param chainVerifier checks the chain (a PKIX trust manager)
     * @param tlsServerName the name to verify instead of the peer host, or null
     */
    VerifyingTrustManager(X509ExtendedTrustManager chainVerifier, String tlsServerName) {
        this.chainVerifier = chainVerifier;
        this.tlsServerName = tlsServerName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        chainVerifier.checkServerTrusted(chain, authType);
        verifyName(chain, engine == null ? null : peerHost(engine.getHandshakeSession(), engine.getPeerHost()));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        chainVerifier.checkServerTrusted(chain, authType);
        String host = null;
        if (socket instanceof SSLSocket ssl) {
            host = peerHost(ssl.getHandshakeSession(), null);
        }
        verifyName(chain, host);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        chainVerifier.checkServerTrusted(chain, authType);
        verifyName(chain, null);
    }

    private void verifyName(X509Certificate[] chain, String peerHost) throws CertificateException {
        String expected = tlsServerName != null ? tlsServerName : peerHost;
        if (expected == null) {
            throw new CertificateException("cannot verify the server certificate's name: the server host is unknown");
        }
        Hostnames.verify(chain[0], expected);
    }

    private static String peerHost(SSLSession session, String fallback) {
        String host = session == null ? null : session.getPeerHost();
        return host != null ? host : fallback;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("this trust manager verifies servers only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("this trust manager verifies servers only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("this trust manager verifies servers only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return chainVerifier.getAcceptedIssuers();
    }
}
