package io.kubeloop.testing.faults;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.Kubeconfig;
import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * An HTTPS proxy in front of an API server that injects faults, for tests that prove clients and
 * controllers lose nothing when the network and the server misbehave. It terminates TLS with a
 * certificate of its own (trusted by {@link #clientConfig(String)}) and works in one of two modes:
 * <ul>
 * <li><b>Request-level</b> ({@link #start}, the default): it speaks HTTP/1.1 only (ALPN offers
 *     nothing else) and serves one request per connection: it forwards the request upstream with
 *     {@code Connection: close} and relays the response, applying the {@link Fault} its
 *     {@link FaultPlan} chose for that request, and caps each watch's {@code timeoutSeconds}
 *     ({@link #maxWatch}).</li>
 * <li><b>Connection-level relay</b> ({@link #startRelay}): ALPN offers {@code h2} and
 *     {@code http/1.1}; each connection is relayed raw, without parsing, to a TLS connection to the
 *     server that negotiates the same protocol, so an HTTP/2 client keeps its one multiplexed
 *     connection. Its faults are of whole connections: a {@link ConnectionFault} chosen by a
 *     {@link ConnectionPlan} per connection, and {@link #freezeAll()}, the blackhole of every
 *     connection open at the time.</li>
 * </ul>
 * Every fault it carried out is counted by kind ({@link #injected()}).
 *
 * <p>A reset connection is a real TCP reset (linger 0 on the plain socket under TLS), so the client
 * sees a broken stream, not a clean end; a {@link Fault.Blackhole blackholed} or frozen one never ends
 * until the client hangs up; every other exchange ends gracefully. With the system
 * property {@code kubeloop.faults.trace=true} each request (each connection, in relay mode) is printed
 * to stderr with its fault.
 *
 * <p><b>Thread safety:</b> thread-safe; each connection runs on a virtual thread of its own (a relayed
 * one on two, one per direction).
 */
public final class FaultInjectingProxy implements AutoCloseable {

    private static final byte[] CRLF = "\r\n".getBytes(StandardCharsets.US_ASCII);

    private final URI upstream;
    private final SSLContext upstreamTls;
    private final TlsMaterial tls;
    private final SSLContext serverTls;
    private final ServerSocket listener;
    private final Thread acceptor;
    private volatile FaultPlan plan;
    private volatile long maxWatchSeconds;
    /** The relay mode's plan; null in the request-level mode. */
    private volatile ConnectionPlan connectionPlan;

    private final boolean relay;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<ConnectionRelay> relays = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final Map<String, AtomicLong> injected = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> protocols = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** The embedded server's bearer token, when started for one; null otherwise. */
    private final String token;

    /** A request-level proxy with {@code plan}, or with {@code connectionPlan} (not null) a relay. */
    private FaultInjectingProxy(
            URI upstream,
            SSLContext upstreamTls,
            FaultPlan plan,
            Duration maxWatch,
            String token,
            ConnectionPlan connectionPlan)
            throws IOException {
        this.token = token;
        this.maxWatchSeconds = Math.max(1, maxWatch.toSeconds());
        this.upstream = upstream;
        this.upstreamTls = upstreamTls;
        this.plan = plan;
        this.connectionPlan = connectionPlan;
        this.relay = connectionPlan != null;
        this.tls = TlsMaterial.generate();
        this.serverTls = serverContext(tls);
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().name("fault-proxy-accept").start(this::accept);
    }

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param upstream the API server's URL (https)
     * @param upstreamTls trusts the API server's certificate
     * @param plan the faults to inject
     * @param maxWatch the longest a watch may run: the proxy lowers (or sets) each watch's
     *     {@code timeoutSeconds} to this, so the server ends watches that no fault ended and clients
     *     keep coming back (whole seconds, at least one)
     * @return the running proxy
     */
    public static FaultInjectingProxy start(URI upstream, SSLContext upstreamTls, FaultPlan plan, Duration maxWatch) {
        return start(upstream, upstreamTls, plan, maxWatch, null);
    }

    /**
     * Starts a proxy in front of an embedded API server; watches last at most 10 s (see
     * {@link #start(URI, SSLContext, FaultPlan, Duration)}), and {@link #clientConfig()}
     * carries the server's token.
     *
     * @param server the API server
     * @param plan the faults to inject
     * @return the running proxy
     */
    public static FaultInjectingProxy start(EmbeddedApiServer server, FaultPlan plan) {
        return start(server.url(), server.clientConfig().sslContext(), plan, Duration.ofSeconds(10), server.token());
    }

    private static FaultInjectingProxy start(
            URI upstream, SSLContext upstreamTls, FaultPlan plan, Duration maxWatch, String token) {
        try {
            return new FaultInjectingProxy(upstream, upstreamTls, plan, maxWatch, token, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts a connection-level relay on a free loopback port: ALPN with the client chooses
     * {@code h2} or {@code http/1.1}, and each connection is relayed raw, without parsing, to a TLS
     * connection to the server that negotiates the same protocol; the server must accept it (the
     * embedded server accepts both). There are no request-level faults, and watches are not capped:
     * they last as long as the client and the server let them. The plan chooses each connection's
     * {@link ConnectionFault}; {@link #freezeAll()} freezes every open connection at any time.
     *
     * @param upstream the API server's URL (https)
     * @param upstreamTls trusts the API server's certificate
     * @param plan the connection faults to inject, e.g. {@link ConnectionPlan#none()}
     * @return the running relay
     */
    public static FaultInjectingProxy startRelay(URI upstream, SSLContext upstreamTls, ConnectionPlan plan) {
        return startRelay(upstream, upstreamTls, plan, null);
    }

    /**
     * Starts a connection-level relay in front of an embedded API server (see
     * {@link #startRelay(URI, SSLContext, ConnectionPlan)}); {@link #clientConfig()} carries the server's token.
     *
     * {@snippet :
     * try (FaultInjectingProxy relay = FaultInjectingProxy.startRelay(server, ConnectionPlan.none());
     *      KubeClient h2 = KubeClient.create(relay.clientConfig(),
     *              ClientOptions.builder().dedicatedWatchConnections(false).build())) {
     *     // start informers on h2: their requests share an HTTP/2 connection through the relay
     *     relay.freezeAll(); // it goes silent for good, as if half-open; the client must replace it
     * }
     * }
     *
     * @param server the API server
     * @param plan the connection faults to inject
     * @return the running relay
     */
    public static FaultInjectingProxy startRelay(EmbeddedApiServer server, ConnectionPlan plan) {
        return startRelay(server.url(), server.clientConfig().sslContext(), plan, server.token());
    }

    private static FaultInjectingProxy startRelay(
            URI upstream, SSLContext upstreamTls, ConnectionPlan plan, String token) {
        Objects.requireNonNull(plan, "plan");
        try {
            return new FaultInjectingProxy(upstream, upstreamTls, FaultPlan.none(), Duration.ofSeconds(1), token, plan);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SSLContext serverContext(TlsMaterial tls) {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(tls.serverKeyStore(), tls.keyStorePassword());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The proxy's URL. */
    public URI url() {
        return URI.create("https://127.0.0.1:" + listener.getLocalPort());
    }

    /**
     * A client configuration that reaches the API server through this proxy.
     *
     * @param token the API server's bearer token
     * @return the configuration
     */
    public ClientConfig clientConfig(String token) {
        return new ClientConfig(
                url(),
                SslContextBuilder.create()
                        .trustCertificates(List.of(tls.caCertificate()))
                        .build(),
                null,
                AuthProvider.bearer(token),
                "default",
                null,
                "fault-injecting proxy " + url() + " to " + upstream);
    }

    /**
     * Changes the longest watch for watches started from now on (whole seconds, at least one).
     *
     * @throws IllegalStateException in relay mode, which does not parse requests
     */
    public void maxWatch(Duration maxWatch) {
        requireRequestLevel("maxWatch");
        this.maxWatchSeconds = Math.max(1, maxWatch.toSeconds());
    }

    /**
     * A client configuration that reaches the embedded API server this proxy was started for.
     *
     * @return the configuration, with the server's token
     * @throws IllegalStateException if the proxy was started for a URL, not an embedded server
     */
    public ClientConfig clientConfig() {
        if (token == null) {
            throw new IllegalStateException("started for a URL: use clientConfig(token)");
        }
        return clientConfig(token);
    }

    /**
     * {@link #clientConfig()} as a kubeconfig file, for clients in other processes (kubectl, other
     * Java clients); owner-only, as {@link io.kubeloop.apiserver.Kubeconfig#write} writes it.
     *
     * @param file where to write it
     * @return the file
     * @throws IllegalStateException if the proxy was started for a URL, not an embedded server
     */
    public Path writeKubeconfig(Path file) {
        if (token == null) {
            throw new IllegalStateException("started for a URL: no token to write");
        }
        return Kubeconfig.write(Kubeconfig.render(url(), tls.caPem(), token), file);
    }

    /**
     * Replaces the plan for requests from now on (e.g. {@link FaultPlan#none()} to let a test settle).
     *
     * @throws IllegalStateException in relay mode: see {@link #connectionPlan(ConnectionPlan)}
     */
    public void plan(FaultPlan newPlan) {
        requireRequestLevel("a request plan");
        this.plan = newPlan;
    }

    /**
     * Replaces the relay's plan for connections accepted from now on.
     *
     * @throws IllegalStateException in the request-level mode: see {@link #plan(FaultPlan)}
     */
    public void connectionPlan(ConnectionPlan newPlan) {
        requireRelay("a connection plan");
        this.connectionPlan = Objects.requireNonNull(newPlan, "newPlan");
    }

    /**
     * The connection-level blackhole: freezes every connection the relay has open (see
     * {@link ConnectionFault.Freeze}): from now on nothing more passes on them in either direction
     * (a chunk the relay was writing at this moment still arrives whole), and each stays open until its
     * client hangs up. Connections accepted afterwards are relayed as their plan says, so a client that
     * gives up on a frozen connection and opens a new one gets through. Each connection frozen is counted as
     * {@code freeze} in {@link #injected()}.
     *
     * @return how many connections this call froze (not counting those frozen already)
     * @throws IllegalStateException in the request-level mode, whose per-request equivalent is
     *         {@link Fault.Blackhole}
     */
    public int freezeAll() {
        requireRelay("freezeAll");
        int frozen = 0;
        for (ConnectionRelay r : relays) {
            if (r.freeze()) {
                frozen++;
            }
        }
        return frozen;
    }

    /**
     * In relay mode, how many connections were relayed, by protocol ({@code h2}, {@code http/1.1}):
     * those whose TLS handshake with the client completed. Empty in the request-level mode.
     */
    public Map<String, Long> relayedConnections() {
        Map<String, Long> out = new TreeMap<>();
        protocols.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** In relay mode, how many accepted connections are still open (frozen ones included); for tests. */
    int openRelays() {
        return relays.size();
    }

    private void requireRelay(String what) {
        if (!relay) {
            throw new IllegalStateException(what + " needs the relay mode (startRelay); this proxy works per request");
        }
    }

    private void requireRequestLevel(String what) {
        if (relay) {
            throw new IllegalStateException(what + " needs the request-level mode (start); this proxy relays"
                    + " connections without parsing requests");
        }
    }

    /** How many faults of each {@link Fault#kind()} were carried out so far (passes not counted). */
    public Map<String, Long> injected() {
        Map<String, Long> out = new TreeMap<>();
        injected.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        open.forEach(ProxiedHttp::reset);
        try {
            acceptor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void accept() {
        while (!closed) {
            Socket plain;
            try {
                plain = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            open.add(plain);
            if (relay) {
                ConnectionRelay r = new ConnectionRelay(
                        accepted.incrementAndGet(),
                        plain,
                        serverTls,
                        upstream,
                        upstreamTls,
                        open,
                        frozen -> count("freeze"));
                relays.add(r);
                Thread.ofVirtual().name("fault-proxy-relay").start(() -> {
                    try {
                        r.run(connectionPlan, this::relaying, this::chosen);
                    } catch (IOException | RuntimeException e) {
                        // a broken connection on either side ends the relay; the client sees it
                    } finally {
                        relays.remove(r);
                        ProxiedHttp.close(plain);
                        open.remove(plain);
                    }
                });
                continue;
            }
            Thread.ofVirtual().name("fault-proxy-conn").start(() -> {
                try {
                    serve(plain);
                } catch (IOException | RuntimeException e) {
                    // a broken connection on either side ends this exchange; the client sees it
                } finally {
                    ProxiedHttp.close(
                            plain); // a graceful end (FIN): a reset could discard a response the client has not read
                    // yet
                    open.remove(plain);
                }
            });
        }
    }

    private void count(Fault fault) {
        if (!(fault instanceof Fault.Pass)) {
            count(fault.kind());
        }
    }

    private void count(String kind) {
        injected.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private void relaying(ConnectionPlan.Connection connection) {
        protocols.computeIfAbsent(connection.protocol(), k -> new AtomicLong()).incrementAndGet();
    }

    private void chosen(ConnectionPlan.Connection connection, ConnectionFault fault) {
        if (Boolean.getBoolean("kubeloop.faults.trace")) { // a debugging aid: every connection and its fault
            System.err.printf(
                    "PROXY %tT.%<tL relay #%d %s -> %s%n",
                    new Date(), connection.number(), connection.protocol(), fault);
        }
    }

    private void serve(Socket plain) throws IOException {
        SSLSocket client =
                (SSLSocket) serverTls.getSocketFactory().createSocket(plain, null, plain.getLocalPort(), false);
        client.setUseClientMode(false);
        SSLParameters params = client.getSSLParameters();
        params.setApplicationProtocols(new String[] {"http/1.1"});
        client.setSSLParameters(params);
        InputStream in = client.getInputStream();
        OutputStream out = client.getOutputStream();

        List<String> head = ProxiedHttp.readHead(in);
        if (head.isEmpty()) {
            return;
        }
        String[] requestLine = head.getFirst().split(" ");
        if (requestLine.length != 3) {
            return;
        }
        FaultPlan.ProxiedRequest request = new FaultPlan.ProxiedRequest(requestLine[0], requestLine[1]);
        long contentLength = 0;
        for (String h : head.subList(1, head.size())) {
            String name = ProxiedHttp.headerName(h);
            if (name.equals("content-length")) {
                contentLength = Long.parseLong(ProxiedHttp.headerValue(h));
            } else if (name.equals("transfer-encoding")) {
                ProxiedHttp.respond(
                        out,
                        501,
                        "NotImplemented",
                        "the fault proxy takes request bodies with Content-Length only",
                        null);
                return;
            }
        }
        byte[] body = in.readNBytes((int) contentLength);

        Fault fault = plan.choose(request);
        if (fault instanceof Fault.WatchGone && !request.isWatch()) {
            fault = new Fault.Pass();
        }
        count(fault);
        if (Boolean.getBoolean("kubeloop.faults.trace")) { // a debugging aid: every request and its fault
            System.err.printf("PROXY %tT.%<tL %s %s -> %s%n", new Date(), request.method(), request.target(), fault);
        }
        switch (fault) {
            case Fault.Reject r ->
                ProxiedHttp.respond(
                        out,
                        r.code(),
                        r.reason(),
                        "injected by the fault proxy",
                        r.retryAfter().toSeconds());
            case Fault.WatchGone g -> ProxiedHttp.watchGone(out);
            case Fault.Blackhole b
            when b.afterBytes() < 0 -> ProxiedHttp.awaitHangUp(client); // accepted, never forwarded
            default -> forward(client, plain, head, body, fault);
        }
        if (!plain.isClosed()) {
            client.close(); // TLS close_notify; the plain socket is closed after
        }
    }

    private void forward(SSLSocket client, Socket plain, List<String> head, byte[] body, Fault fault)
            throws IOException {
        try (SSLSocket up =
                (SSLSocket) upstreamTls.getSocketFactory().createSocket(upstream.getHost(), upstream.getPort())) {
            open.add(up);
            try {
                SSLParameters params = up.getSSLParameters();
                params.setApplicationProtocols(new String[] {"http/1.1"});
                up.setSSLParameters(params);
                OutputStream upOut = up.getOutputStream();
                ByteArrayOutputStream request = new ByteArrayOutputStream();
                request.write(requestLine(head.getFirst()).getBytes(StandardCharsets.US_ASCII));
                request.write(CRLF);
                for (String h : head.subList(1, head.size())) {
                    if (!ProxiedHttp.isHopByHop(ProxiedHttp.headerName(h))) {
                        request.write(h.getBytes(StandardCharsets.ISO_8859_1));
                        request.write(CRLF);
                    }
                }
                request.write("Connection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                request.write(body);
                upOut.write(request.toByteArray());
                upOut.flush();

                // the client hanging up (an informer stopping its watch) ends the exchange
                CountDownLatch hungUp = new CountDownLatch(1);
                Thread.ofVirtual().name("fault-proxy-hangup").start(() -> {
                    ProxiedHttp.awaitHangUp(client);
                    ProxiedHttp.reset(up);
                    hungUp.countDown();
                });

                InputStream upIn = up.getInputStream();
                List<String> responseHead = ProxiedHttp.readHead(upIn);
                if (responseHead.isEmpty()) {
                    return;
                }
                OutputStream out = client.getOutputStream();
                ByteArrayOutputStream response = new ByteArrayOutputStream();
                for (int i = 0; i < responseHead.size(); i++) {
                    String h = responseHead.get(i);
                    if (i == 0 || !ProxiedHttp.isHopByHop(ProxiedHttp.headerName(h))) {
                        response.write(h.getBytes(StandardCharsets.ISO_8859_1));
                        response.write(CRLF);
                    }
                }
                response.write("Connection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.write(response.toByteArray());
                out.flush();
                if (fault instanceof Fault.Blackhole b) {
                    ProxiedHttp.blackhole(upIn, out, b.afterBytes(), hungUp);
                    return;
                }
                ProxiedHttp.relay(upIn, out, plain, fault);
            } finally {
                open.remove(up);
            }
        }
    }

    /** The request line, with a watch's {@code timeoutSeconds} capped at {@link #maxWatchSeconds}. */
    private String requestLine(String line) {
        String[] parts = line.split(" ");
        if (!new FaultPlan.ProxiedRequest(parts[0], parts[1]).isWatch()) {
            return line;
        }
        String target = parts[1];
        int q = target.indexOf('?');
        StringBuilder query = new StringBuilder();
        long timeout = maxWatchSeconds;
        if (q >= 0) {
            for (String param : target.substring(q + 1).split("&")) {
                if (param.startsWith("timeoutSeconds=")) {
                    timeout = Math.min(timeout, Long.parseLong(param.substring("timeoutSeconds=".length())));
                } else if (!param.isEmpty()) {
                    query.append(param).append('&');
                }
            }
        }
        query.append("timeoutSeconds=").append(timeout);
        return parts[0] + " " + (q < 0 ? target : target.substring(0, q)) + "?" + query + " " + parts[2];
    }
}
