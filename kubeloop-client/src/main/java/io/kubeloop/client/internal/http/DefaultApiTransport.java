package io.kubeloop.client.internal.http;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.time.Ticker;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;

/**
 * The {@link ApiTransport} of kubeloop: one JDK {@link HttpClient} (HTTP/2 preferred, HTTP/1.1 when
 * the server does not offer h2 in ALPN) and, for watches, a connection each, behind this
 * interceptor pipeline, outermost first:
 * <ol>
 * <li>in a {@linkplain #withRequestMetrics metered view}: the call's latency</li>
 * <li>the application interceptors of {@link ClientOptions#interceptors()}</li>
 * <li>retry of GET/HEAD on 429/5xx with Retry-After ({@link ClientOptions#maxRetries()})</li>
 * <li>client-side token-bucket rate limit per attempt (unless disabled)</li>
 * <li>in a metered view: each attempt's status</li>
 * <li>User-Agent</li>
 * <li>authentication from {@link ClientConfig#auth()}, one retry after a 401</li>
 * <li>request logging at {@link ClientOptions#verbosity()} (sees final headers, masked)</li>
 * <li>the call: streaming GETs (watches, streamed lists) on a dedicated HTTP/1.1 connection each
 *     ({@link ClientOptions#dedicatedWatchConnections()}, see {@code SocketStreamSender}); with
 *     {@link ClientOptions#http1Requests()} (the default) the other requests on kept-alive HTTP/1.1
 *     connections (see {@code Http1RequestSender}); everything else through the HttpClient</li>
 * </ol>
 *
 * <p>TLS: the {@link ClientConfig#sslContext()} carries trust, client certificate and hostname
 * verification. {@link ClientConfig#tlsServerName()} is sent as SNI through
 * {@link SSLParameters#setServerNames}; the JDK client (checked on JDK 25) honours that only when
 * the server URI's host is an IP literal and otherwise always sends the URI's host name, so with a
 * DNS host the override affects certificate verification only. A proxy ({@link ClientConfig#proxy()})
 * must be an {@code http://} proxy; the JDK client tunnels HTTPS through it with CONNECT.
 *
 * <p><b>A dead shared connection is replaced.</b> The HttpClient multiplexes its requests on one
 * HTTP/2 connection and never checks it: unlike Go's HTTP/2 transport, which client-go configures
 * to send a PING after 30 s without a frame ({@code ReadIdleTimeout}) and to drop the connection
 * when the answer takes 15 s ({@code PingTimeout}), the JDK client sends no PINGs and offers no API
 * to send one, nor a read-idle timeout or socket options. A half-open connection (the peer vanished,
 * or a proxy or load balancer stopped forwarding) would therefore hold every later request until its
 * request timeout, for good. So the transport retires its HttpClient when it sees evidence that the
 * connection is dead:
 * <ul>
 * <li>a watch made through it was ended by its idle timeout or its deadline
 *     ({@link io.kubeloop.client.WatchTimeoutException}, see {@code io.kubeloop.client.Watch}), or</li>
 * <li>a request made through it got no response head within {@link ClientOptions#requestTimeout()}
 *     (a non-streaming one: not its whole response).</li>
 * </ul>
 * Requests from then on go to a new HttpClient of the same configuration, so over a new connection;
 * a request that picked the old client as it was retired is refused by it unsent and goes to the new
 * one. The old client takes no new requests and lets those in flight finish or fail by their own
 * bounds; it closes its connection and threads when they have, and is shut down for good after the
 * longer of the request timeout and {@link ClientOptions#watchIdleTimeout()} at the latest. Evidence
 * counts against the client it came from: two failures on one connection retire it once, a late one
 * from an already retired client changes nothing. Each retirement is logged once, at WARN, with its
 * reason. Choosing the client is one volatile read per request; no lock. A false alarm (a watch left
 * silent on a healthy connection, a server slower than the request timeout) costs a new connection,
 * and the watches still on the old one at the end of the grace are ended and resumed.
 *
 * <p>No probe of an idle connection: without PINGs a probe would have to be a request (say
 * {@code GET /livez} every 30 s), authenticated, rate-limited and answered by the server for every
 * client, to find sooner what the evidence above finds anyway. A dead connection is thus replaced
 * within the watch idle timeout (3 minutes by default; informers' watches ask for bookmarks, which
 * the server sends about every minute) or the request timeout (60 s), whichever a request meets
 * first, where client-go needs 45 s; lower those two to replace it sooner. Watches on dedicated
 * connections (the default) never share a connection: their bounds close their own socket, and TCP
 * keepalive (30 s) checks it meanwhile.
 *
 * <p>Thread-safe; share one instance per server. {@link #close()} ends in-flight streaming responses.
 */
public final class DefaultApiTransport implements ApiTransport {

    private final URI server;
    private final SharedHttpClient clients;
    private final HttpClientSender shared;
    private final SocketStreamSender streams;
    private final Http1RequestSender unary;
    private final Stages stages;
    private final List<Interceptor> interceptors;
    /** False for a {@link #withRequestMetrics} view, which closes nothing. */
    private final boolean owner;

    /**
     * The pipeline's parts, shared by this transport's metered views: one rate limiter's bucket, one
     * authenticator, one sender.
     */
    private record Stages(
            List<Interceptor> application,
            int maxRetries,
            Duration maxRetryWait,
            Ticker ticker,
            TokenBucket bucket,
            Interceptor userAgent,
            Interceptor auth,
            Interceptor logging,
            Interceptor sender) {

        /** The pipeline, outermost first, reporting to {@code metrics}. */
        List<Interceptor> chain(RequestMetrics metrics) {
            boolean metered = metrics != RequestMetrics.NONE;
            List<Interceptor> chain = new ArrayList<>();
            if (metered) {
                chain.add(new MetricsInterceptor.Latency(metrics, ticker));
            }
            chain.addAll(application);
            chain.add(new RetryInterceptor(maxRetries, maxRetryWait, ticker, metrics));
            if (bucket != null) {
                chain.add(new RateLimitInterceptor(bucket, ticker, metrics));
            }
            if (metered) {
                chain.add(new MetricsInterceptor.Result(metrics));
            }
            chain.add(userAgent);
            chain.add(auth);
            if (logging != null) {
                chain.add(logging);
            }
            chain.add(sender);
            return chain;
        }
    }

    private DefaultApiTransport(
            URI server,
            SharedHttpClient clients,
            HttpClientSender shared,
            SocketStreamSender streams,
            Http1RequestSender unary,
            Stages stages,
            RequestMetrics metrics,
            boolean owner) {
        this.server = server;
        this.clients = clients;
        this.shared = shared;
        this.streams = streams;
        this.unary = unary;
        this.stages = stages;
        this.interceptors = List.copyOf(stages.chain(metrics));
        this.owner = owner;
    }

    /**
     * Builds the transport for one server.
     *
     * @throws IllegalArgumentException when the proxy is not an http:// URL with a host
     */
    public static DefaultApiTransport create(ClientConfig config, ClientOptions options) {
        ProxySelector proxy = config.proxy() == null ? null : proxySelector(config.proxy());
        URI server = stripTrailingSlash(config.server());
        Duration grace = options.requestTimeout().compareTo(options.watchIdleTimeout()) >= 0
                ? options.requestTimeout()
                : options.watchIdleTimeout();
        SharedHttpClient clients = new SharedHttpClient(server, () -> httpClient(config, options, proxy), grace);
        HttpClientSender shared = new HttpClientSender(clients, options.requestTimeout(), options.connectTimeout());
        Interceptor sender = shared;
        Http1RequestSender unary = null;
        if (options.http1Requests() && config.proxy() == null) {
            unary = new Http1RequestSender(
                    sender,
                    new Http1Connector(
                            config.sslContext(),
                            config.tlsServerName(),
                            options.preferChaCha20(),
                            options.connectTimeout(),
                            options.requestTimeout()),
                    options.connectTimeout(),
                    options.requestTimeout());
            sender = unary;
        }
        SocketStreamSender streams = null;
        if (options.dedicatedWatchConnections() && config.proxy() == null) {
            streams = new SocketStreamSender(
                    sender,
                    config.sslContext(),
                    config.tlsServerName(),
                    options.preferChaCha20(),
                    options.connectTimeout(),
                    options.requestTimeout());
            sender = streams;
        }
        Stages stages = new Stages(
                List.copyOf(options.interceptors()),
                options.maxRetries(),
                options.maxRetryWait(),
                options.ticker(),
                options.rateLimitingEnabled()
                        ? new TokenBucket(options.qps(), options.burst(), options.ticker())
                        : null,
                new UserAgentInterceptor(
                        options.userAgent() != null ? options.userAgent() : UserAgentInterceptor.defaultUserAgent()),
                new AuthInterceptor(config.auth()),
                options.verbosity() >= 6
                        ? new LoggingInterceptor(options.verbosity(), options.logSink(), options.ticker())
                        : null,
                sender);
        return new DefaultApiTransport(server, clients, shared, streams, unary, stages, RequestMetrics.NONE, true);
    }

    /**
     * A view of this transport whose requests report to {@code metrics}: the same connections, rate
     * limiter, authentication and application interceptors. Closing the view closes nothing.
     */
    public DefaultApiTransport withRequestMetrics(RequestMetrics metrics) {
        return new DefaultApiTransport(
                server, clients, shared, streams, unary, stages, Objects.requireNonNull(metrics, "metrics"), false);
    }

    /** A new HttpClient of this configuration: the first, and each replacement of a dead one. */
    private static HttpClient httpClient(ClientConfig config, ClientOptions options, ProxySelector proxy) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(options.connectTimeout())
                .sslContext(config.sslContext());
        SSLParameters params = config.sslContext().getDefaultSSLParameters();
        if (config.tlsServerName() != null && !config.tlsServerName().isEmpty()) {
            params.setServerNames(List.of(new SNIHostName(config.tlsServerName())));
        }
        if (options.preferChaCha20()) {
            params.setCipherSuites(CipherSuites.chaCha20First(params.getCipherSuites()));
        }
        b.sslParameters(params);
        if (proxy != null) {
            b.proxy(proxy);
        }
        return b.build();
    }

    /** The User-Agent kubeloop sends unless told otherwise. */
    public static String defaultUserAgent() {
        return UserAgentInterceptor.defaultUserAgent();
    }

    @Override
    public URI server() {
        return server;
    }

    @Override
    public ApiResponse send(ApiRequest request) {
        return DefaultInterceptorChain.run(interceptors, request);
    }

    @Override
    public void close() {
        if (!owner) {
            return;
        }
        if (streams != null) {
            streams.closeAll();
        }
        if (unary != null) {
            unary.closeAll();
        }
        clients.close();
        shared.close();
    }

    /** The shared HttpClient's holder, for tests. */
    SharedHttpClient clients() {
        return clients;
    }

    private static ProxySelector proxySelector(URI proxy) {
        String scheme = proxy.getScheme() == null ? "" : proxy.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") || proxy.getHost() == null) {
            throw new IllegalArgumentException("unsupported proxy-url " + proxy
                    + ": only http://host:port proxies are supported by the JDK HTTP client");
        }
        int port = proxy.getPort() == -1 ? 80 : proxy.getPort();
        return ProxySelector.of(InetSocketAddress.createUnresolved(proxy.getHost(), port));
    }

    private static URI stripTrailingSlash(URI uri) {
        String s = uri.toString();
        return s.endsWith("/") ? URI.create(s.substring(0, s.length() - 1)) : uri;
    }
}
