package io.kubeloop.apiserver.internal.admission;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts a server whose chain the delegate trusts and whose certificate names {@code serverName} (a
 * Service's DNS name, {@code <name>.<namespace>.svc}) among its DNS subject alternative names, whatever
 * address was dialled: how a webhook behind a Service is checked when it is reached at its endpoint's
 * address.
 *
 * <p>Immutable and thread-safe.
 */
final class ServiceNameTrustManager extends X509ExtendedTrustManager {

    private static final int DNS_NAME = 2;

    private final X509TrustManager delegate;
    private final String serverName;

    ServiceNameTrustManager(X509TrustManager delegate, String serverName) {
        this.delegate = delegate;
        this.serverName = serverName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkServerTrusted(chain, authType);
        if (!names(chain[0]).contains(serverName)) {
            throw new CertificateException("x509: certificate is not valid for " + serverName);
        }
    }

    private static List<String> names(X509Certificate cert) throws CertificateParsingException {
        Collection<List<?>> sans = cert.getSubjectAlternativeNames();
        if (sans == null) {
            return List.of();
        }
        return sans.stream()
                .filter(san -> san.size() == 2 && Integer.valueOf(DNS_NAME).equals(san.get(0)))
                .map(san -> String.valueOf(san.get(1)))
                .toList();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a webhook client trusts no clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
