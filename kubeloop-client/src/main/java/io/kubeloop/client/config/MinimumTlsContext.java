package io.kubeloop.client.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An initialized {@link SSLContext} whose engines, sockets and default parameters enable only
 * TLS 1.2 and 1.3, whatever the JDK's security properties allow. (client-go's minimum is 1.2.)
 *
 * <p>A caller that later applies its own {@link SSLParameters} to an engine replaces the enabled
 * protocols; start from {@link SSLContext#getDefaultSSLParameters()} to keep the restriction.
 * Thread-safe like the wrapped context.
 */
final class MinimumTlsContext extends SSLContext {

    static final Set<String> ALLOWED = Set.of("TLSv1.2", "TLSv1.3");

    MinimumTlsContext(SSLContext initialized) {
        super(new Spi(initialized), initialized.getProvider(), initialized.getProtocol());
    }

    static String[] allowed(String[] protocols) {
        return Arrays.stream(protocols).filter(ALLOWED::contains).toArray(String[]::new);
    }

    private static SSLParameters restrictParameters(SSLParameters parameters) {
        parameters.setProtocols(allowed(parameters.getProtocols()));
        return parameters;
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext inner;

        Spi(SSLContext inner) {
            this.inner = inner;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
                throws KeyManagementException {
            throw new KeyManagementException("already initialized");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new RestrictedSocketFactory(inner.getSocketFactory());
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return inner.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return restrict(inner.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return restrict(inner.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return inner.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return inner.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return restrictParameters(inner.getDefaultSSLParameters());
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return restrictParameters(inner.getSupportedSSLParameters());
        }

        private static SSLEngine restrict(SSLEngine engine) {
            engine.setEnabledProtocols(allowed(engine.getEnabledProtocols()));
            return engine;
        }
    }

    private static final class RestrictedSocketFactory extends SSLSocketFactory {
        private final SSLSocketFactory inner;

        RestrictedSocketFactory(SSLSocketFactory inner) {
            this.inner = inner;
        }

        private static Socket restrict(Socket socket) {
            if (socket instanceof SSLSocket ssl) {
                ssl.setEnabledProtocols(allowed(ssl.getEnabledProtocols()));
            }
            return socket;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return inner.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return inner.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket() throws IOException {
            return restrict(inner.createSocket());
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            return restrict(inner.createSocket(s, host, port, autoClose));
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return restrict(inner.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return restrict(inner.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return restrict(inner.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return restrict(inner.createSocket(address, port, localAddress, localPort));
        }
    }
}
