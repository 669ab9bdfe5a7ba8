package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The last stage for streaming GETs (watches, and lists read as they arrive): each gets a connection of its
 * own, HTTP/1.1 over a
 * TLS socket (plain TCP for {@code http://} servers), and its body is read straight from that
 * socket: over TLS by a reader thread that decrypts ahead in 64 KB chunks while the consuming
 * thread decodes, otherwise by the consuming thread itself. Everything else goes to the {@code fallback} stage (the JDK
 * HttpClient, HTTP/2).
 *
 * <p>Why: a watch that starts with the initial events of a large collection moves hundreds of
 * megabytes at once. Over TLS, a reader thread decrypts ahead while the consumer decodes
 * ({@link PrefetchingInputStream}). Read through the JDK HttpClient, every 16 KB HTTP/2 frame passes its
 * selector thread, a worker, a flow-control window update and a queue to the reading thread; on
 * the informer benchmark's 2-core machine that costs about 1.5× the CPU of reading the same bytes
 * from a socket (BENCHMARKS.md). One connection per watch is what kubectl and client-go do when
 * HTTP/2 is off, and what the API server expects of HTTP/1.1 clients.
 *
 * <p>TLS: the same {@link SSLContext} as the HttpClient, so the same trust, client certificate and
 * server-name check (kubeloop's trust managers do it themselves against {@code tlsServerName} or the
 * host; others through the {@code HTTPS} endpoint identification set here, as the HttpClient sets
 * it); {@code tlsServerName} is sent as SNI. ALPN offers {@code http/1.1} only. Cipher suites are
 * offered ChaCha20-Poly1305 first when asked ({@link CipherSuites}), as the HttpClient's.
 *
 * <p>The response: status line and headers as {@link Http1ResponseHead}, read by the calling thread
 * within {@code requestTimeout} (the socket's read timeout while it waits, as the HttpClient's
 * request timeout); the body chunked ({@link ChunkedInputStream}), of a {@code Content-Length}, or up
 * to the end of the connection, read without a socket timeout: a watch is silent for as long as its
 * collection does not change, and its own bounds ({@code io.kubeloop.client.Watch}: a deadline and an
 * idle timeout) end it by closing the body. Closing the body closes the socket, which also ends a read
 * blocked in another thread; so does {@link #closeAll()}.
 *
 * <p>Dead peers: every connection has TCP keepalive on, with {@value #KEEPALIVE_SECONDS} s of idleness
 * before the first probe and between probes where the platform lets Java set them
 * ({@code jdk.net.ExtendedSocketOptions}; client-go's dialer uses the same 30 s), so the operating
 * system ends a connection whose peer vanished even when no watch bound would yet.
 *
 * <p>Connections: a watch's is its own and closed with its body ({@code Connection: close}). A list's is
 * kept alive: once its body was read to the end and closed, the connection waits (at most
 * {@value #MAX_IDLE_CONNECTIONS}, for at most {@link #MAX_IDLE}) for the next list, with its reader thread,
 * so that a paged list costs one or two TLS handshakes, not one per page. A kept connection that the
 * server closed meanwhile is noticed when the next list is sent on it, which then goes on a fresh one (a
 * GET, so safe to send again). A body closed before its end closes its connection. A list's body, unlike
 * a watch's, must keep coming: its socket keeps the request timeout as its read timeout.
 *
 * <p>Thread-safe: a connection is used by one call at a time; the sets of open and idle connections are
 * concurrent.
 */
final class SocketStreamSender implements Interceptor {

    /** TCP keepalive: idle time before the first probe and between probes, in seconds. */
    static final int KEEPALIVE_SECONDS = Http1Connector.KEEPALIVE_SECONDS;
    /** How many idle list connections are kept. */
    static final int MAX_IDLE_CONNECTIONS = 2;
    /** How long an idle list connection is kept (servers close theirs after about a minute or more). */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    private final Interceptor fallback;
    private final Http1Connector connector;
    private final Duration requestTimeout;
    private final TransportFailures failures;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Map<Socket, InputStream> readers = new ConcurrentHashMap<>();
    /** Connections of lists read to their end, most recently released last. */
    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();

    private volatile boolean closedAll;

    /**
     * @param fallback the stage for every request this one does not take
     * @param tlsServerName SNI and certificate name override, or null
     * @param preferChaCha20 true to offer ChaCha20-Poly1305 cipher suites first
     */
    SocketStreamSender(
            Interceptor fallback,
            SSLContext sslContext,
            String tlsServerName,
            boolean preferChaCha20,
            Duration connectTimeout,
            Duration requestTimeout) {
        this.fallback = fallback;
        this.connector = new Http1Connector(sslContext, tlsServerName, preferChaCha20, connectTimeout, requestTimeout);
        this.requestTimeout = requestTimeout;
        this.failures = new TransportFailures(connectTimeout, requestTimeout);
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        String scheme = request.uri().getScheme() == null
                ? ""
                : request.uri().getScheme().toLowerCase(Locale.ROOT);
        if (!request.streaming()
                || !request.method().equals("GET")
                || request.body() != null
                || !(scheme.equals("https") || scheme.equals("http"))) {
            return fallback.intercept(chain);
        }
        boolean keepAlive = !isWatch(request.uri());
        byte[] head = Http1Connector.requestHead(request, keepAlive); // bad header values fail here, before connecting
        if (keepAlive) {
            Idle kept;
            while ((kept = takeIdle()) != null) {
                try {
                    return exchange(request, head, kept.socket(), kept.in(), true);
                } catch (IOException | RuntimeException stale) {
                    // closed by the server while idle: a GET goes again on another connection
                    release(kept.socket());
                }
            }
        }
        Socket socket = connector.connect(request, scheme.equals("https"), open);
        try {
            // the head within requestTimeout, read by this thread; then a watch's body has no socket timeout
            // (see the class comment) and a list's keeps the request timeout
            socket.setSoTimeout(millis(requestTimeout));
            boolean tls = socket instanceof SSLSocket;
            InputStream in =
                    tls ? socket.getInputStream() : new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            return exchange(request, head, socket, in, keepAlive);
        } catch (IOException | RuntimeException e) {
            release(socket);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw failures.of(request, (IOException) e, false);
        }
    }

    /**
     * Sends the request head on {@code socket}, reads the response head from {@code in} and hands the body
     * over; over TLS a reader thread then decrypts ahead ({@code in} already is one on a kept connection).
     */
    private ApiResponse exchange(ApiRequest request, byte[] head, Socket socket, InputStream in, boolean keepAlive)
            throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(head);
        out.flush();
        Http1ResponseHead response = Http1ResponseHead.read(in);
        String connection = response.header("Connection");
        boolean reusable = keepAlive
                && (connection == null || !connection.toLowerCase(Locale.ROOT).contains("close"));
        if (!keepAlive) {
            socket.setSoTimeout(0);
        }
        InputStream body = in;
        if (socket instanceof SSLSocket && !(in instanceof PrefetchingInputStream)) {
            // decrypting overlaps with decoding: a reader thread, started only once the head is in
            PrefetchingInputStream ahead = new PrefetchingInputStream(in);
            readers.put(socket, ahead); // release(socket) stops its reader thread too
            body = ahead;
        }
        return new ApiResponse(request, response.status(), response.headers(), body(response, body, socket, reusable));
    }

    /** Closes every open streaming connection, ending their reads; kept-alive ones too. */
    void closeAll() {
        closedAll = true;
        for (Socket s : List.copyOf(open)) {
            release(s);
        }
        idle.clear();
    }

    /** An idle connection kept alive for the next list: its socket, the stream its responses come from, since when. */
    private record Idle(Socket socket, InputStream in, long sinceNanos) {}

    /** The most recently released live idle connection, or null; drops the ones idle too long. */
    private Idle takeIdle() {
        Idle c;
        while ((c = idle.pollLast()) != null) {
            if (System.nanoTime() - c.sinceNanos() < MAX_IDLE.toNanos()
                    && !c.socket().isClosed()) {
                return c;
            }
            release(c.socket());
        }
        return null;
    }

    /** Keeps a connection whose response was read to its end for the next list (at most {@link #MAX_IDLE_CONNECTIONS}). */
    private void keepIdle(Socket socket, InputStream in) {
        if (closedAll) {
            release(socket);
            return;
        }
        idle.addLast(new Idle(socket, in, System.nanoTime()));
        while (idle.size() > MAX_IDLE_CONNECTIONS) {
            Idle oldest = idle.pollFirst();
            if (oldest != null) {
                release(oldest.socket());
            }
        }
        if (closedAll) {
            closeAll();
        }
    }

    /** How many streaming connections are open (for tests). */
    int openConnections() {
        return open.size();
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }

    /** The connections open now, for tests. */
    List<Socket> openSockets() {
        return List.copyOf(open);
    }

    /**
     * The response body over the connection's stream. Closing it closes the connection, unless
     * {@code reusable} and the body was read to its end (a length or chunked body): then the connection
     * waits for the next list.
     */
    private InputStream body(Http1ResponseHead response, InputStream in, Socket socket, boolean reusable)
            throws IOException {
        String encoding = response.header("Transfer-Encoding");
        InputStream body;
        boolean delimited = true;
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            body = new ChunkedInputStream(in);
        } else if (response.header("Content-Length") != null) {
            long length;
            try {
                length = Long.parseLong(response.header("Content-Length").strip());
            } catch (NumberFormatException e) {
                throw new IOException("malformed Content-Length: " + response.header("Content-Length"));
            }
            body = new LimitedInputStream(in, length);
        } else {
            body = in; // delimited by the end of the connection
            delimited = false;
        }
        boolean keep = reusable && delimited;
        InputStream connection = in; // inside the filter, "in" is its body stream
        return new FilterInputStream(body) {
            private boolean ended;
            private boolean closed;

            @Override
            public int read() throws IOException {
                int b = super.read();
                ended |= b < 0;
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                ended |= n < 0;
                return n;
            }

            @Override
            public void close() {
                if (closed) {
                    return;
                }
                closed = true;
                if (keep && ended) {
                    keepIdle(socket, connection);
                } else {
                    release(socket);
                }
            }
        };
    }

    private void release(Socket socket) {
        closeQuietly(socket);
        open.remove(socket);
        InputStream reader = readers.remove(socket);
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException ignored) {
                // the socket is closed already
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }

    /** The request line and header fields of a request on a connection of its own ({@code Connection: close}). */
    static byte[] requestHead(ApiRequest request) {
        return Http1Connector.requestHead(request, false);
    }

    /** As {@link Http1Connector#requestHead}. */
    static byte[] requestHead(ApiRequest request, boolean keepAlive) {
        return Http1Connector.requestHead(request, keepAlive);
    }

    /** A body of known length: end of stream after {@code length} bytes; a short connection is an error. */
    private static final class LimitedInputStream extends BodyInputStream {

        private long left;

        LimitedInputStream(InputStream in, long length) {
            super(in);
            this.left = length;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("the connection ended " + left + " bytes before the body's end");
            }
            left -= n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(left, in.available());
        }
    }

    /** True for a watch request ({@code watch=true} or {@code watch=1} in the query). */
    static boolean isWatch(URI uri) {
        String query = uri.getRawQuery();
        if (query == null) {
            return false;
        }
        for (String param : query.split("&")) {
            if (param.equals("watch=true") || param.equals("watch=1")) {
                return true;
            }
        }
        return false;
    }
}
