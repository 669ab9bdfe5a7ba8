package io.kubeloop.peers.race;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * A fabric8 client {@code Interceptor} that counts every request (and WebSocket upgrade, fabric8's
 * way to watch) in a {@link RequestTally} before it is sent; it changes nothing.
 *
 * <p><b>Thread safety.</b> Thread-safe (the tally is).
 */
final class TallyInterceptor implements Interceptor {

    private final RequestTally tally;

    TallyInterceptor(RequestTally tally) {
        this.tally = tally;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        String query = request.uri().getRawQuery();
        tally.record(request.method(), request.uri().getRawPath() + (query == null ? "" : "?" + query));
    }
}
