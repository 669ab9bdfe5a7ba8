package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.Interceptor;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A view of another transport whose requests first pass one more interceptor, outermost: the view's
 * interceptor sees each request before the underlying transport's own pipeline (retries, rate limit,
 * authentication) does, once per call. The chain polices the interceptor as it polices the transport's
 * own (one proceed per attempt, no null response).
 *
 * <p>The view owns nothing: {@link #close()} leaves the underlying transport and its connections
 * open, since other clients share them.
 *
 * <p>Thread-safe when the interceptor is.
 */
public final class InterceptedTransport implements ApiTransport {

    private final ApiTransport delegate;
    private final Interceptor interceptor;
    /** The added interceptor, then the underlying transport as the last stage. */
    private final List<Interceptor> stages;

    /**
     * A view of {@code delegate} whose requests pass {@code interceptor} first.
     *
     * @param delegate the transport that sends
     * @param interceptor the stage added in front
     */
    public InterceptedTransport(ApiTransport delegate, Interceptor interceptor) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
        Interceptor send = chain -> delegate.send(chain.request());
        this.stages = List.of(interceptor, send);
    }

    /** The transport this view sends through. */
    ApiTransport delegate() {
        return delegate;
    }

    /** This view's interceptor in front of another transport. */
    InterceptedTransport over(ApiTransport other) {
        return new InterceptedTransport(other, interceptor);
    }

    @Override
    public URI server() {
        return delegate.server();
    }

    @Override
    public ApiResponse send(ApiRequest request) {
        return DefaultInterceptorChain.run(stages, Objects.requireNonNull(request, "request"));
    }

    /** Does nothing: the underlying transport belongs to the client it came from. */
    @Override
    public void close() {}
}
