package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import jdk.net.ExtendedSocketOptions;

/**
 * Opens kubeloop's own HTTP/1.1 connections and writes their request heads, for the streaming
 * ({@link SocketStreamSender}) and the unary ({@link Http1RequestSender}) stages: TLS with the client's
 * {@link SSLContext} (so the same trust, client certificate and server-name check; the {@code HTTPS}
 * endpoint identification set as the JDK HttpClient sets it), {@code tlsServerName} as SNI, ALPN
 * offering {@code http/1.1} only, ChaCha20-Poly1305 offered first when asked ({@link CipherSuites}),
 * TCP_NODELAY, and TCP keepalive with {@value #KEEPALIVE_SECONDS} s of idleness before the first probe
 * and between probes where the platform lets Java set them (client-go's dialer uses the same 30 s).
 *
 * <p>Immutable and thread-safe.
 */
final class Http1Connector {

    /** TCP keepalive: idle time before the first probe and between probes, in seconds. */
    static final int KEEPALIVE_SECONDS = 30;

    /** Headers this layer writes itself; a caller's are dropped (as the JDK client refuses them). */
    private static final Set<String> OWN = Set.of(
            "connection", "content-length", "expect", "host", "upgrade", "transfer-encoding", "te", "keep-alive");

    private final SSLContext sslContext;
    private final String tlsServerName;
    private final boolean preferChaCha20;
    private final Duration connectTimeout;
    private final TransportFailures failures;

    /**
     * @param tlsServerName SNI and certificate name override, or null
     * @param preferChaCha20 true to offer ChaCha20-Poly1305 cipher suites first
     */
    Http1Connector(
            SSLContext sslContext,
            String tlsServerName,
            boolean preferChaCha20,
            Duration connectTimeout,
            Duration requestTimeout) {
        this.sslContext = sslContext;
        this.tlsServerName = tlsServerName == null || tlsServerName.isEmpty() ? null : tlsServerName;
        this.preferChaCha20 = preferChaCha20;
        this.connectTimeout = connectTimeout;
        this.failures = new TransportFailures(connectTimeout, requestTimeout);
    }

    /**
     * A connected socket to the request's server, over TLS when {@code tls}, registered in {@code open}
     * from before the handshake (so closing everything in {@code open} ends a handshake too).
     *
     * @throws io.kubeloop.client.http.TransportException when it cannot connect
     */
    Socket connect(ApiRequest request, boolean tls, Set<Socket> open) {
        return open(request, tls, open).socket();
    }

    /**
     * A connection: the socket requests and responses go through, and under it the TCP socket (the same
     * one without TLS), whose unread bytes show that a server closed an idle connection.
     */
    record Connected(Socket socket, Socket tcp) {}

    /** As {@link #connect}, with the TCP socket under a TLS one. */
    Connected open(ApiRequest request, boolean tls, Set<Socket> open) {
        URI uri = request.uri();
        String host = hostOf(uri);
        int port = uri.getPort() != -1 ? uri.getPort() : tls ? 443 : 80;
        int timeoutMillis = millis(connectTimeout);
        Socket raw = new Socket();
        Socket socket = raw;
        open.add(raw); // closeAll() during the handshake ends it too
        try {
            raw.connect(new InetSocketAddress(host, port), timeoutMillis);
            raw.setTcpNoDelay(true);
            keepAlive(raw);
            if (tls) {
                SSLSocket ssl = (SSLSocket) sslContext.getSocketFactory().createSocket(raw, host, port, true);
                socket = ssl;
                open.add(ssl);
                open.remove(raw);
                SSLParameters params = ssl.getSSLParameters();
                params.setApplicationProtocols(new String[] {"http/1.1"});
                // as the JDK HttpClient: the standard trust managers check the name only when asked;
                // kubeloop's own (ClientConfig) check it themselves either way
                params.setEndpointIdentificationAlgorithm("HTTPS");
                if (tlsServerName != null) {
                    params.setServerNames(List.of(new SNIHostName(tlsServerName)));
                }
                if (preferChaCha20) {
                    params.setCipherSuites(CipherSuites.chaCha20First(params.getCipherSuites()));
                }
                ssl.setSSLParameters(params);
                raw.setSoTimeout(timeoutMillis);
                ssl.startHandshake();
            }
            return new Connected(socket, raw);
        } catch (IOException e) {
            closeQuietly(socket);
            closeQuietly(raw);
            open.remove(socket);
            open.remove(raw);
            throw failures.of(request, e, true);
        }
    }

    /** SO_KEEPALIVE, and its timing where the platform supports setting it. */
    private static void keepAlive(Socket socket) throws IOException {
        socket.setKeepAlive(true);
        Set<SocketOption<?>> supported = socket.supportedOptions();
        if (supported.contains(ExtendedSocketOptions.TCP_KEEPIDLE)) {
            socket.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, KEEPALIVE_SECONDS);
        }
        if (supported.contains(ExtendedSocketOptions.TCP_KEEPINTERVAL)) {
            socket.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, KEEPALIVE_SECONDS);
        }
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }

    /**
     * The request line and header fields, ISO-8859-1, ending with the empty line: the request's method and
     * target, {@code Host}, its headers but those this layer writes itself, {@code Content-Length} when it
     * has a body (zero for a body-less POST, PUT or PATCH); {@code keepAlive} false adds
     * {@code Connection: close}.
     */
    static byte[] requestHead(ApiRequest request, boolean keepAlive) {
        URI uri = request.uri();
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        StringBuilder sb = new StringBuilder(256);
        sb.append(request.method()).append(' ').append(target).append(" HTTP/1.1\r\n");
        String authority = uri.getRawAuthority();
        int at = authority.lastIndexOf('@');
        sb.append("Host: ")
                .append(at >= 0 ? authority.substring(at + 1) : authority)
                .append("\r\n");
        List<String> names = new ArrayList<>(request.headers().keySet());
        for (String name : names) {
            if (OWN.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            requireToken(name);
            for (String value : request.headers().get(name)) {
                requireFieldValue(name, value);
                sb.append(name).append(": ").append(value).append("\r\n");
            }
        }
        byte[] body = request.body();
        if (body != null) {
            sb.append("Content-Length: ").append(body.length).append("\r\n");
        } else if (Set.of("POST", "PUT", "PATCH").contains(request.method())) {
            sb.append("Content-Length: 0\r\n");
        }
        sb.append(keepAlive ? "\r\n" : "Connection: close\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void requireToken(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty header name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c > 32 && c < 127 && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
            if (!ok) {
                throw new IllegalArgumentException("invalid header name " + name);
            }
        }
    }

    private static void requireFieldValue(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 255) {
                throw new IllegalArgumentException("invalid value for header " + name);
            }
        }
    }

    private static String hostOf(URI uri) {
        String host = uri.getHost();
        if (host == null) {
            throw new IllegalArgumentException("no host in " + uri);
        }
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
