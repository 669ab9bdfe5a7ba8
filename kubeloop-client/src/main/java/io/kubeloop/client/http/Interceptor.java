package io.kubeloop.client.http;

/**
 * One stage of the HTTP pipeline: observes, changes, short-circuits or repeats a request on its way
 * to the API server. Authentication, user agent, rate limiting, retries and request logging are all
 * interceptors; the last stage sends the request with the JDK {@link java.net.http.HttpClient}.
 *
 * {@snippet :
 * Interceptor tracing = chain -> {
 *     ApiRequest request = chain.request().withHeader("X-Trace", "1");
 *     return chain.proceed(request);
 * };
 * }
 *
 * <p><b>Contract.</b> {@link #intercept} returns a non-null response. It calls
 * {@link Chain#proceed} at most once per attempt: it may call it again (to retry) only after it
 * closed or fully read the previous response, so no connection leaks and no body is read twice.
 * The chain enforces both rules and names the offending interceptor in the
 * {@link IllegalStateException}. A response the interceptor does not return must be closed by it.
 * An interceptor must never buffer the body of a {@linkplain ApiRequest#streaming() streaming}
 * request's response.
 *
 * <p><b>Thread safety.</b> One transport calls its interceptors from many threads at once;
 * implementations must be thread-safe.
 *
 * @see <a href="https://square.github.io/okhttp/features/interceptors/">OkHttp interceptors</a>, the model
 */
@FunctionalInterface
public interface Interceptor {

    /** Handles one request; see the class contract. */
    ApiResponse intercept(Chain chain);

    /**
     * The rest of the pipeline as seen by one interceptor. A chain is made for one call of
     * {@link Interceptor#intercept} and must not be kept after it returns.
     */
    interface Chain {

        /** The request as it reached this interceptor. */
        ApiRequest request();

        /**
         * Passes a request (usually {@link #request()}, possibly changed) to the next stage and
         * returns its response.
         *
         * @throws IllegalStateException when called again while the previous response is still open
         * @throws TransportException when no HTTP answer arrives
         */
        ApiResponse proceed(ApiRequest request);
    }
}
