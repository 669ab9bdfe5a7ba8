package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The last stage for requests that are not streamed (gets, lists read whole, creates, updates,
 * patches, deletes): HTTP/1.1 over kept-alive TLS sockets of kubeloop's own (plain TCP for
 * {@code http://} servers), as client-go talks to a server without HTTP/2. A request takes an idle
 * connection (the one released last) or opens one, writes its head and body in one go, reads the whole
 * response within {@code requestTimeout} (the socket's read timeout) and gives the connection back when
 * the response was delimited and the server did not ask to close; at most {@value #MAX_IDLE_CONNECTIONS}
 * connections wait, each for at most {@link #MAX_IDLE}. Streaming requests go to {@code fallback}.
 *
 * <p>Why: in an operator's profile the JDK HttpClient's HTTP/2 send path (its selector and worker
 * threads, frames, flow control) is about a quarter of the CPU, and the server spends more on HTTP/2
 * than on HTTP/1.1 too; one request per connection at a time, on the thread that sends it, is the
 * cheapest correct transport.
 *
 * <p>A kept connection the server closed while it was idle: servers close with a TLS {@code close_notify}
 * (or a TCP FIN), so a kept connection whose TCP socket has unread bytes is not used again. A request
 * that still finds its connection closed goes again on another one, as Go's transport decides: when
 * writing it failed (the server read nothing), or when it got no byte of a response and is a GET or HEAD.
 * Any other failure, and every timeout, is the caller's: the server may have acted on the request.
 *
 * <p>TLS, SNI, cipher-suite order and keepalive are those of the streaming connections
 * ({@link Http1Connector}). Thread-safe: a connection is used by one request at a time.
 */
final class Http1RequestSender implements Interceptor {

    /** How many idle connections are kept. */
    static final int MAX_IDLE_CONNECTIONS = 32;
    /** How long an idle connection is kept: shorter than servers keep theirs (kube-apiserver 90 s, Jetty 30 s). */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    private final Interceptor fallback;
    private final Http1Connector connector;
    private final Duration requestTimeout;
    private final TransportFailures failures;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closedAll;
    /** Kept connections dropped because the server was closing them (for tests). */
    private final AtomicInteger closingDropped = new AtomicInteger();

    /** A connection: its socket, the TCP socket under it, buffered input and output, when it was last released. */
    private record Connection(Socket socket, Socket tcp, BufferedInputStream in, OutputStream out, long sinceNanos) {

        Connection released() {
            return new Connection(socket, tcp, in, out, System.nanoTime());
        }

        /** True when the server sent something while nothing was asked: it is closing the connection. */
        boolean closing() {
            try {
                return socket.isClosed() || tcp.getInputStream().available() > 0 || in.available() > 0;
            } catch (IOException e) {
                return true;
            }
        }
    }

    /** The server ended a kept connection before answering: the request was not read. */
    private static final class ClosedIdle extends IOException {
        private static final long serialVersionUID = 1L;

        ClosedIdle(Throwable cause) {
            super("the server closed the idle connection", cause);
        }
    }

    Http1RequestSender(
            Interceptor fallback, Http1Connector connector, Duration connectTimeout, Duration requestTimeout) {
        this.fallback = fallback;
        this.connector = connector;
        this.requestTimeout = requestTimeout;
        this.failures = new TransportFailures(connectTimeout, requestTimeout);
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        String scheme = request.uri().getScheme() == null
                ? ""
                : request.uri().getScheme().toLowerCase(Locale.ROOT);
        if (request.streaming() || !(scheme.equals("https") || scheme.equals("http"))) {
            return fallback.intercept(chain);
        }
        byte[] head = Http1Connector.requestHead(request, true); // bad header values fail here
        Connection kept;
        while ((kept = takeIdle()) != null) {
            try {
                return exchange(request, head, kept);
            } catch (ClosedIdle stale) {
                // not read by the server: on the next kept connection or a new one
            } catch (IOException e) {
                throw failures.of(request, e, false);
            }
        }
        Http1Connector.Connected connected = connector.open(request, scheme.equals("https"), open);
        Socket socket = connected.socket();
        try {
            Connection c = new Connection(
                    socket,
                    connected.tcp(),
                    new BufferedInputStream(socket.getInputStream(), 16 * 1024),
                    socket.getOutputStream(),
                    System.nanoTime());
            return exchange(request, head, c);
        } catch (IOException e) {
            release(socket);
            throw failures.of(request, e instanceof ClosedIdle ? (IOException) e.getCause() : e, false);
        }
    }

    /** Sends the request on {@code c}, reads the whole response, keeps {@code c} when it can be used again. */
    private ApiResponse exchange(ApiRequest request, byte[] head, Connection c) throws IOException {
        boolean written = false;
        boolean answered = false;
        try {
            c.socket().setSoTimeout(millis(requestTimeout));
            OutputStream out = c.out();
            out.write(head);
            if (request.body() != null) {
                out.write(request.body());
            }
            out.flush();
            written = true;
            c.in().mark(1);
            if (c.in().read() < 0) {
                throw new EOFException("the server closed the connection without answering");
            }
            answered = true;
            c.in().reset();
            Http1ResponseHead response = Http1ResponseHead.read(c.in());
            String connection = response.header("Connection");
            boolean reusable =
                    connection == null || !connection.toLowerCase(Locale.ROOT).contains("close");
            byte[] body;
            String encoding = response.header("Transfer-Encoding");
            if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
                // read to the last chunk, not closed: closing it would close the connection
                body = new ChunkedInputStream(c.in()).readAllBytes();
            } else if (response.header("Content-Length") != null) {
                int length = contentLength(response);
                body = c.in().readNBytes(length);
                if (body.length < length) {
                    throw new EOFException(
                            "the connection ended " + (length - body.length) + " bytes before the body's end");
                }
            } else if (response.status() == 204
                    || response.status() == 304
                    || request.method().equals("HEAD")) {
                body = new byte[0];
            } else {
                body = c.in().readAllBytes(); // delimited by the end of the connection
                reusable = false;
            }
            if (reusable && !closedAll) {
                keepIdle(c.released());
            } else {
                release(c.socket());
            }
            return new ApiResponse(
                    request, response.status(), lowerCase(response.headers()), new ByteArrayInputStream(body));
        } catch (IOException e) {
            release(c.socket());
            boolean closedBeforeAnswer = e instanceof EOFException || e instanceof SocketException;
            if (!written && !(e instanceof SocketTimeoutException)
                    || written && !answered && closedBeforeAnswer && request.isSafe()) {
                throw new ClosedIdle(e);
            }
            throw e;
        }
    }

    /** Field names in lower case, as the HttpClient hands them over from HTTP/2. */
    private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        headers.forEach((name, values) -> out.merge(name.toLowerCase(Locale.ROOT), values, (a, b) -> {
            List<String> both = new ArrayList<>(a);
            both.addAll(b);
            return both;
        }));
        return out;
    }

    private static int contentLength(Http1ResponseHead response) throws IOException {
        try {
            long n = Long.parseLong(response.header("Content-Length").strip());
            if (n < 0 || n > Integer.MAX_VALUE - 16) {
                throw new IOException("unsupported Content-Length: " + n);
            }
            return (int) n;
        } catch (NumberFormatException e) {
            throw new IOException("malformed Content-Length: " + response.header("Content-Length"));
        }
    }

    /** The most recently released live idle connection, or null; drops the ones idle too long. */
    private Connection takeIdle() {
        Connection c;
        while ((c = idle.pollLast()) != null) {
            boolean fresh = System.nanoTime() - c.sinceNanos() < MAX_IDLE.toNanos();
            if (fresh && !c.closing()) {
                return c;
            }
            if (fresh) {
                closingDropped.incrementAndGet();
            }
            release(c.socket());
        }
        return null;
    }

    private void keepIdle(Connection c) {
        idle.addLast(c);
        while (idle.size() > MAX_IDLE_CONNECTIONS) {
            Connection oldest = idle.pollFirst();
            if (oldest != null) {
                release(oldest.socket());
            }
        }
        if (closedAll) {
            closeAll();
        }
    }

    /** Closes every connection, idle or in use. */
    void closeAll() {
        closedAll = true;
        idle.clear();
        for (Socket s : List.copyOf(open)) {
            release(s);
        }
    }

    /** How many kept connections were dropped unused because the server was closing them (for tests). */
    int closingDropped() {
        return closingDropped.get();
    }

    /** How many connections are open (for tests). */
    int openConnections() {
        return open.size();
    }

    private void release(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
        open.remove(socket);
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }
}
