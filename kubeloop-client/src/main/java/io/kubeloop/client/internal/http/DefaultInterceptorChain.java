package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Interceptor.Chain} handed to interceptor number {@code index}: proceeding makes a new
 * chain for {@code index + 1}. The interceptor list and the request are immutable; the only state
 * is the last response this chain returned, used to police the proceed rules.
 *
 * <p>Thread safety: a chain belongs to one call of one interceptor; it is not shared.
 */
final class DefaultInterceptorChain implements Interceptor.Chain {

    private final List<Interceptor> interceptors;
    private final int index;
    private final ApiRequest request;
    /** The response of the previous {@link #proceed}, null before the first. */
    private ApiResponse previous;

    DefaultInterceptorChain(List<Interceptor> interceptors, int index, ApiRequest request) {
        this.interceptors = interceptors;
        this.index = index;
        this.request = request;
    }

    /** Runs the whole pipeline for one request. */
    static ApiResponse run(List<Interceptor> interceptors, ApiRequest request) {
        return new DefaultInterceptorChain(interceptors, 0, request).call();
    }

    @Override
    public ApiRequest request() {
        return request;
    }

    @Override
    public ApiResponse proceed(ApiRequest next) {
        Objects.requireNonNull(next, "request");
        if (index >= interceptors.size() - 1) {
            throw new IllegalStateException("interceptor " + name(index) + " is the last stage and cannot proceed");
        }
        if (previous != null && !previous.released()) {
            throw new IllegalStateException(
                    "interceptor " + name(index) + " called proceed() again without closing the previous response");
        }
        ApiResponse response = new DefaultInterceptorChain(interceptors, index + 1, next).call();
        previous = response;
        return response;
    }

    private ApiResponse call() {
        ApiResponse response = interceptors.get(index).intercept(this);
        if (response == null) {
            throw new IllegalStateException("interceptor " + name(index) + " returned null");
        }
        return response;
    }

    private String name(int i) {
        Interceptor interceptor = interceptors.get(i);
        String simple = interceptor.getClass().getSimpleName();
        return (simple.isEmpty() || simple.contains("$$Lambda")
                        ? interceptor.getClass().getName()
                        : simple) + " (#" + i + ")";
    }
}
