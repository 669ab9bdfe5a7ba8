package io.kubeloop.client.http;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.config.ClientConfig;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;

/**
 * The {@link ApiTransport} of kubeloop: one JDK {@link HttpClient} (HTTP/2 preferred, HTTP/1.1 when
 * the server does not offer h2 in ALPN) and, for watches, a connection each, behind this
 * interceptor pipeline, outermost first:
 * <ol>
 * <li>the application interceptors of {@link ClientOptions#interceptors()}</li>
 * <li>retry of GET/HEAD on 429/5xx with Retry-After ({@link ClientOptions#maxRetries()})</li>
 * <li>client-side token-bucket rate limit per attempt (unless disabled)</li>
 * <li>User-Agent</li>
 * <li>authentication from {@link ClientConfig#auth()}, one retry after a 401</li>
 * <li>request logging at {@link ClientOptions#verbosity()} (sees final headers, masked)</li>
 * <li>the call: streaming GETs (watches, streamed lists) on a dedicated HTTP/1.1 connection each
 *     ({@link ClientOptions#dedicatedWatchConnections()}, see {@code SocketStreamSender}), everything
 *     else through the HttpClient</li>
 * </ol>
 *
 * <p>TLS: the {@link ClientConfig#sslContext()} carries trust, client certificate and hostname
 * verification. {@link ClientConfig#tlsServerName()} is sent as SNI through
 * {@link SSLParameters#setServerNames}; the JDK client (checked on JDK 25) honours that only when
 * the server URI's host is an IP literal and otherwise always sends the URI's host name, so with a
 * DNS host the override affects certificate verification only. A proxy ({@link ClientConfig#proxy()})
 * must be an {@code http://} proxy; the JDK client tunnels HTTPS through it with CONNECT.
 *
 * <p>Thread-safe; share one instance per server. {@link #close()} ends in-flight streaming responses.
 */
public final class DefaultApiTransport implements ApiTransport {

    private final URI server;
    private final HttpClient client;
    private final SocketStreamSender streams;
    private final List<Interceptor> interceptors;

    private DefaultApiTransport(URI server, HttpClient client, SocketStreamSender streams,
                                List<Interceptor> interceptors) {
        this.server = server;
        this.client = client;
        this.streams = streams;
        this.interceptors = List.copyOf(interceptors);
    }

    /**
     * Builds the transport for one server.
     *
     * @throws IllegalArgumentException when the proxy is not an http:// URL with a host
     */
    public static DefaultApiTransport create(ClientConfig config, ClientOptions options) {
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
        if (config.proxy() != null) {
            b.proxy(proxySelector(config.proxy()));
        }
        HttpClient client = b.build();
        List<Interceptor> chain = new ArrayList<>(options.interceptors());
        chain.add(new RetryInterceptor(options.maxRetries(), options.maxRetryWait(), options.ticker()));
        if (options.rateLimitingEnabled()) {
            chain.add(new RateLimitInterceptor(options.qps(), options.burst(), options.ticker()));
        }
        chain.add(new UserAgentInterceptor(options.userAgent() != null
                ? options.userAgent() : UserAgentInterceptor.defaultUserAgent()));
        chain.add(new AuthInterceptor(config.auth()));
        if (options.verbosity() >= 6) {
            chain.add(new LoggingInterceptor(options.verbosity(), options.logSink(), options.ticker()));
        }
        Interceptor sender = new HttpClientSender(client, options.requestTimeout(), options.connectTimeout());
        SocketStreamSender streams = null;
        if (options.dedicatedWatchConnections() && config.proxy() == null) {
            streams = new SocketStreamSender(sender, config.sslContext(), config.tlsServerName(),
                    options.preferChaCha20(), options.connectTimeout(), options.requestTimeout());
            sender = streams;
        }
        chain.add(sender);
        return new DefaultApiTransport(stripTrailingSlash(config.server()), client, streams, chain);
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
        if (streams != null) {
            streams.closeAll();
        }
        client.shutdownNow();
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
