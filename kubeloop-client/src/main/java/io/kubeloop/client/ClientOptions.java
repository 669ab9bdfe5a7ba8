package io.kubeloop.client;

import io.kubeloop.api.Scheme;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * How a {@link KubeClient} talks to its server: client-side rate limit, timeouts, retries, request
 * logging and extra interceptors. Build with {@link #builder()}, derive with {@link #toBuilder()}.
 *
 * <p>Defaults (also the builder's starting values):
 * <ul>
 * <li>rate limiting off, as controller-runtime's clients have it and as SIG API Machinery
 *     advises for servers with API Priority and Fairness (every supported Kubernetes version):
 *     the server queues or answers 429 with Retry-After, which the retries honour, and a client-side
 *     bucket only slows a controller's start-up (an informer paging through 50,000 objects in
 *     pages of 500 would wait at least 3.5 s for tokens at 20 QPS). Setting {@code qps} or
 *     {@code burst} turns the token bucket on ({@code qps} 20 and {@code burst} 30 unless set);
 *     {@code rateLimitingEnabled(false)} turns it off again.</li>
 * <li>{@code connectTimeout} 10 s; {@code requestTimeout} 60 s for each non-streaming call, and for
 *     a watch's response head.</li>
 * <li>{@code watchTimeoutMargin} 30 s: a watch the server has not ended by its
 *     {@code timeoutSeconds} plus this (one hour plus this without {@code timeoutSeconds}) is ended by
 *     the client. Generous against server and network delays and pauses, short against the 5–10
 *     minute watches of informers.</li>
 * <li>{@code watchIdleTimeout} 3 minutes, for watches that ask for bookmarks and set no
 *     {@link ListOptions#idleTimeout()} of their own: API servers send such a watch a BOOKMARK about
 *     every minute, so one that received nothing for three is presumed dead; the client ends it. Zero turns it
 *     off (for servers that never send bookmarks). See {@link Watch} for both bounds.</li>
 * <li>TCP keepalive (30 s idle, 30 s between probes, as client-go's dialer) on the connections
 *     kubeloop opens itself (the dedicated watch connections); the JDK HttpClient's connections
 *     are the JDK's.</li>
 * <li>{@code maxRetries} 10 (client-go's), {@code maxRetryWait} 30 s: GET/HEAD answered 429 or 5xx
 *     with {@code Retry-After} are re-sent after the asked delay, capped at {@code maxRetryWait}.</li>
 * <li>{@code verbosity} 0 (no request logging); lines go to {@code logSink}, by default SLF4J
 *     logger {@code io.kubeloop.client.http} at INFO.</li>
 * <li>{@code userAgent} null = {@code kubeloop/<version> (<os>/<arch>) java/<version>}.</li>
 * <li>{@code ticker} real time; {@code interceptors} none.</li>
 * <li>{@code dedicatedWatchConnections} true: each watch reads its own HTTP/1.1 connection on the
 *     consuming thread (about a third less CPU for large initial event streams than the shared
 *     HTTP/2 client). Off, or with a proxy, watches are
 *     multiplexed on the JDK HttpClient's HTTP/2 connection, where only the watch bounds above find a silent
 *     connection (the JDK HttpClient offers no socket options such as keepalive and sends no HTTP/2
 *     PINGs).</li>
 * <li>{@code http1Requests} true: requests that are not streamed go over a pool of kept-alive HTTP/1.1
 *     connections of kubeloop's own; false: they share the JDK HttpClient's HTTP/2 connection.</li>
 * <li>The shared connection is replaced when it is presumed dead: a watch on it ended by its idle
 *     timeout or deadline, or a request on it without a response head (a non-streaming one: without
 *     its whole response) within {@code requestTimeout},
 *     makes the client send later requests over a new connection (a new JDK HttpClient) and close the
 *     old one once its requests in flight have ended, after the longer of {@code requestTimeout} and
 *     {@code watchIdleTimeout} at the latest; logged at WARN. So a half-open connection is replaced
 *     within the watch idle timeout or the request timeout, whichever a request meets first; there
 *     is no probe of an idle connection (the JDK offers no PING). See
 *     {@code DefaultApiTransport}.</li>
 * <li>{@code preferChaCha20} true: TLS cipher suites are offered ChaCha20-Poly1305 first (all
 *     others still offered), because the JDK's AES-GCM runs without its CPU intrinsics until the JIT
 *     has compiled its callers, which makes a fresh JVM's first large list or watch-list about three
 *     times slower to decrypt; servers that honour the client's order (Go's, so kube-apiserver) then
 *     pick ChaCha20. False offers the JDK's default order.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe when the sink, ticker and interceptors are.
 *
 * @param qps sustained requests per second allowed by the client-side limiter, &gt; 0
 * @param burst requests allowed at once before the limiter makes callers wait, &ge; 1
 * @param rateLimitingEnabled false turns the client-side limiter off
 * @param connectTimeout time allowed to open a connection
 * @param requestTimeout time allowed for a non-streaming call, from sending to the whole body, and for
 *        the response head of a watch
 * @param maxRetries how often a safe request is re-sent after 429/5xx with Retry-After, &ge; 0
 * @param maxRetryWait upper bound of one wait before a retry
 * @param verbosity kubectl's {@code -v} level for request logging, 0 = off; 6–10 log more
 * @param logSink receives each request-log line
 * @param userAgent the User-Agent header, or null for kubeloop's default
 * @param ticker the clock of the limiter, the retries, the watch bounds, request logging and the discovery
 *     cache's TTL
 * @param interceptors application interceptors, run first (outermost) in this order
 * @param scheme the Java types mapped to kinds, for {@link KubeClient#resource(Class)}
 * @param discoveryCacheDir kubectl-layout disk cache for discovery, or null for memory only
 * @param discoveryCacheTtl how long disk-cached discovery stays fresh
 * @param dedicatedWatchConnections true to give each watch an HTTP/1.1 connection of its own
 * @param http1Requests true to send the requests that are not streamed over kept-alive HTTP/1.1
 *        connections of kubeloop's own instead of the JDK HttpClient's HTTP/2 connection
 * @param preferChaCha20 true to offer ChaCha20-Poly1305 TLS cipher suites before the others
 * @param watchTimeoutMargin how long after its {@code timeoutSeconds} the client ends a watch the
 *        server has not ended, &ge; 0
 * @param watchIdleTimeout how long a watch that asks for bookmarks may receive nothing while its
 *        consumer waits before the client ends it, &ge; 0; zero for never
 */
public record ClientOptions(
        double qps,
        int burst,
        boolean rateLimitingEnabled,
        Duration connectTimeout,
        Duration requestTimeout,
        int maxRetries,
        Duration maxRetryWait,
        int verbosity,
        Consumer<String> logSink,
        String userAgent,
        Ticker ticker,
        List<Interceptor> interceptors,
        Scheme scheme,
        Path discoveryCacheDir,
        Duration discoveryCacheTtl,
        boolean dedicatedWatchConnections,
        boolean http1Requests,
        boolean preferChaCha20,
        Duration watchTimeoutMargin,
        Duration watchIdleTimeout) {

    public ClientOptions {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException("qps must be a positive number, got " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, got " + burst);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative, got " + maxRetries);
        }
        if (verbosity < 0) {
            throw new IllegalArgumentException("verbosity must not be negative, got " + verbosity);
        }
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(requestTimeout, "requestTimeout");
        requireNotNegative(maxRetryWait, "maxRetryWait");
        Objects.requireNonNull(logSink, "logSink");
        Objects.requireNonNull(ticker, "ticker");
        interceptors = List.copyOf(interceptors);
        Objects.requireNonNull(scheme, "scheme");
        requirePositive(discoveryCacheTtl, "discoveryCacheTtl");
        requireNotNegative(watchTimeoutMargin, "watchTimeoutMargin");
        requireNotNegative(watchIdleTimeout, "watchIdleTimeout");
    }

    /** The defaults listed above. */
    public static ClientOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.qps = qps;
        b.burst = burst;
        b.rateLimitingEnabled = rateLimitingEnabled;
        b.connectTimeout = connectTimeout;
        b.requestTimeout = requestTimeout;
        b.maxRetries = maxRetries;
        b.maxRetryWait = maxRetryWait;
        b.verbosity = verbosity;
        b.logSink = logSink;
        b.userAgent = userAgent;
        b.ticker = ticker;
        b.interceptors = interceptors;
        b.scheme = scheme;
        b.discoveryCacheDir = discoveryCacheDir;
        b.discoveryCacheTtl = discoveryCacheTtl;
        b.dedicatedWatchConnections = dedicatedWatchConnections;
        b.http1Requests = http1Requests;
        b.preferChaCha20 = preferChaCha20;
        b.watchTimeoutMargin = watchTimeoutMargin;
        b.watchIdleTimeout = watchIdleTimeout;
        return b;
    }

    private static void requireNotNegative(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + Durations.format(d));
        }
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (!d.isPositive()) {
            throw new IllegalArgumentException(name + " must be positive, got " + Durations.format(d));
        }
    }

    /** Mutable builder; not thread-safe. Setters return this builder. */
    public static final class Builder {
        private double qps = 20;
        private int burst = 30;
        private boolean rateLimitingEnabled;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration requestTimeout = Duration.ofSeconds(60);
        private int maxRetries = 10;
        private Duration maxRetryWait = Duration.ofSeconds(30);
        private int verbosity;
        private Consumer<String> logSink =
                line -> LoggerFactory.getLogger("io.kubeloop.client.http").info(line);
        private String userAgent;
        private Ticker ticker = Ticker.system();
        private List<Interceptor> interceptors = List.of();
        private Scheme scheme = Scheme.defaults();
        private Path discoveryCacheDir;
        private Duration discoveryCacheTtl = Duration.ofHours(6);
        private boolean dedicatedWatchConnections = true;
        private boolean http1Requests = true;
        private boolean preferChaCha20 = true;
        private Duration watchTimeoutMargin = Duration.ofSeconds(30);
        private Duration watchIdleTimeout = Duration.ofMinutes(3);

        private Builder() {}

        /** Sustained requests per second of the client-side token bucket; turns the bucket on. */
        public Builder qps(double qps) {
            this.qps = qps;
            this.rateLimitingEnabled = true;
            return this;
        }

        /** Requests allowed at once by the client-side token bucket; turns the bucket on. */
        public Builder burst(int burst) {
            this.burst = burst;
            this.rateLimitingEnabled = true;
            return this;
        }

        public Builder rateLimitingEnabled(boolean enabled) {
            this.rateLimitingEnabled = enabled;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public Builder maxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
            return this;
        }

        public Builder maxRetryWait(Duration maxRetryWait) {
            this.maxRetryWait = maxRetryWait;
            return this;
        }

        public Builder verbosity(int verbosity) {
            this.verbosity = verbosity;
            return this;
        }

        public Builder logSink(Consumer<String> logSink) {
            this.logSink = logSink;
            return this;
        }

        public Builder userAgent(String userAgent) {
            this.userAgent = userAgent;
            return this;
        }

        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        public Builder interceptors(List<Interceptor> interceptors) {
            this.interceptors = interceptors;
            return this;
        }

        /** The Java types the client maps to kinds ({@link KubeClient#resource(Class)}). */
        public Builder scheme(Scheme scheme) {
            this.scheme = scheme;
            return this;
        }

        /**
         * Keep discovery on disk in kubectl's layout under this directory (e.g. {@code ~/.kube/cache},
         * shared with kubectl); null (the default) keeps it in memory only, as client-go's memory cache.
         */
        public Builder discoveryCacheDir(Path discoveryCacheDir) {
            this.discoveryCacheDir = discoveryCacheDir;
            return this;
        }

        /** How long disk-cached discovery stays fresh; default 6 hours, as kubectl 1.24+. */
        public Builder discoveryCacheTtl(Duration ttl) {
            this.discoveryCacheTtl = ttl;
            return this;
        }

        /**
         * True (the default): each watch gets an HTTP/1.1 connection of its own, read by the thread
         * that consumes the events; false: watches share the JDK HttpClient's HTTP/2 connection.
         * Ignored (treated as false) when the kubeconfig names a proxy.
         */
        public Builder dedicatedWatchConnections(boolean dedicated) {
            this.dedicatedWatchConnections = dedicated;
            return this;
        }

        /**
         * True (the default): requests that are not streamed (gets, whole lists, creates, updates,
         * patches, deletes) go over kept-alive HTTP/1.1 connections of kubeloop's own, one request per
         * connection at a time on the calling thread, as client-go talks to a server without HTTP/2 (the
         * sample-controller spent 0.7× the CPU this way, and the server 0.6×, against the JDK
         * HttpClient's HTTP/2); false: they share the JDK HttpClient's HTTP/2 connection. Ignored
         * (treated as false) when the kubeconfig names a proxy.
         */
        public Builder http1Requests(boolean http1) {
            this.http1Requests = http1;
            return this;
        }

        /**
         * True (the default): offer ChaCha20-Poly1305 TLS cipher suites first, then the JDK's others in
         * its order; false: the JDK's default order. Never removes a suite from the offer.
         */
        public Builder preferChaCha20(boolean prefer) {
            this.preferChaCha20 = prefer;
            return this;
        }

        /**
         * How long after its {@code timeoutSeconds} (after one hour without) the client ends a watch the
         * server has not ended; default 30 s.
         */
        public Builder watchTimeoutMargin(Duration margin) {
            this.watchTimeoutMargin = margin;
            return this;
        }

        /**
         * How long a watch that asks for bookmarks (and sets no {@link ListOptions#idleTimeout()}) may
         * receive nothing while its consumer waits before the client ends it; default 3 minutes (the
         * server sends a bookmark about every minute); zero for never.
         */
        public Builder watchIdleTimeout(Duration idleTimeout) {
            this.watchIdleTimeout = idleTimeout;
            return this;
        }

        public ClientOptions build() {
            return new ClientOptions(
                    qps,
                    burst,
                    rateLimitingEnabled,
                    connectTimeout,
                    requestTimeout,
                    maxRetries,
                    maxRetryWait,
                    verbosity,
                    logSink,
                    userAgent,
                    ticker,
                    interceptors,
                    scheme,
                    discoveryCacheDir,
                    discoveryCacheTtl,
                    dedicatedWatchConnections,
                    http1Requests,
                    preferChaCha20,
                    watchTimeoutMargin,
                    watchIdleTimeout);
        }
    }
}
