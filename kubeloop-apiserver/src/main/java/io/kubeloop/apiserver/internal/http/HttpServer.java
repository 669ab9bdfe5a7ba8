package io.kubeloop.apiserver.internal.http;

import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.pathmap.RegexPathSpec;
import org.eclipse.jetty.http2.WindowRateControl;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.eclipse.jetty.websocket.core.server.WebSocketUpgradeHandler;

/**
 * The Jetty server: HTTPS (TLS 1.2+, HTTP/2 via ALPN and HTTP/1.1, client certificates of the server's CA
 * accepted when offered), every request on a virtual thread
 * (no cap on how many run at once: watches hold theirs), WebSocket upgrades for watches in front of the
 * {@link ApiHandler}.
 *
 * <p><b>Thread safety.</b> {@link #start()} and {@link #close()} are meant for one owner thread.
 */
public final class HttpServer implements AutoCloseable {

    /** The HTTP/2 frames a second Jetty tolerates of the kinds it counts as suspicious before closing a connection. */
    static final int MAX_SUSPICIOUS_FRAMES_PER_SECOND = 10_000;

    private final Server server;
    private final ServerConnector connector;
    private final ApiHandler handler;

    /** A server on {@code bind:port} (0 = a free port) with {@code tls}, serving {@code handler}. */
    public HttpServer(String bind, int port, TlsMaterial tls, ApiHandler handler) {
        this.handler = handler;
        VirtualThreadPool pool = new VirtualThreadPool();
        pool.setName("kubeloop-apiserver");
        // Jetty caps a virtual-thread pool at 200 concurrent tasks by default, and a chunked watch holds its
        // request's task for its whole life: the 201st watch (and every request after it) would wait
        // forever. kube-apiserver exempts long-running requests from its in-flight limits; so do we.
        pool.setMaxConcurrentTasks(0);
        server = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(true);
        // the request line and headers may take 1 MiB, as Go's net/http lets kube-apiserver's take
        // (Jetty's default of 8 KiB refuses a long name or label selector the real server serves)
        http.setRequestHeaderSize(1 << 20);
        SecureRequestCustomizer src = new SecureRequestCustomizer();
        src.setSniHostCheck(false);
        http.addCustomizer(src);
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(tls.serverKeyStore());
        ssl.setKeyStorePassword(new String(tls.keyStorePassword()));
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        // client certificates signed by the server's CA authenticate their CN (user) and O (groups);
        // clients without one go on with a token or anonymously
        ssl.setWantClientAuth(true);
        ssl.setTrustStore(tls.caTrustStore());
        // The client's cipher preference decides, as with kube-apiserver: Go's crypto/tls picks
        // ChaCha20-Poly1305 for a client that lists it first (Jetty's default is the server's order).
        ssl.setUseCipherSuitesOrder(false);
        HttpConnectionFactory h1 = new HttpConnectionFactory(http);
        HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
        // Jetty closes an HTTP/2 connection after 128 "suspicious" frames a second by default, and counts the
        // body frames a client still sends for a request refused before any handler (a NUL or a dot segment in
        // the path): a burst of those closed the connection under the client's other streams. Go's server has
        // no such per-second cap (it bounds queued control frames and concurrent streams), so the cap is high.
        h2.setRateControlFactory(new WindowRateControl.Factory(MAX_SUSPICIOUS_FRAMES_PER_SECOND));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(h1.getProtocol());
        SslConnectionFactory tlsFactory = new SslConnectionFactory(ssl, alpn.getProtocol());
        connector = new ServerConnector(server, tlsFactory, alpn, h2, h1);
        connector.setHost(bind);
        connector.setPort(port);
        connector.setIdleTimeout(Duration.ofHours(2).toMillis()); // silent watches must survive
        server.addConnector(connector);
        WebSocketUpgradeHandler ws = new WebSocketUpgradeHandler();
        ws.addMapping(new RegexPathSpec("^/.*"), new WebSocketWatches(handler));
        ws.setHandler(handler);
        server.setHandler(ws);
        server.setErrorHandler(new JettyErrors());
        server.setStopTimeout(2000);
    }

    /**
     * Starts listening.
     *
     * @throws IllegalStateException when the port cannot be bound
     */
    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the API server on " + connector.getHost() + ":" + connector.getPort() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** The bound address (after start). */
    public InetSocketAddress address() {
        return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
    }

    /**
     * Stops listening, gives open connections up to 2 s to finish their requests (then closes them: a client
     * that stopped reading its watch is cut off, which is no failure), and waits as long again until the
     * requests still being handled — the watches just ended, say — have ended, each with its audit entry.
     */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (TimeoutException gracePeriodOver) {
            // Jetty reports connections still open after the stop timeout; it has closed them
        } catch (Exception e) {
            throw new IllegalStateException("stopping the API server failed: " + e, e);
        }
        handler.awaitIdle(Duration.ofSeconds(2));
    }
}
