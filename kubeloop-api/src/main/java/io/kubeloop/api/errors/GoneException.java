package io.kubeloop.api.errors;

import java.time.Duration;

/**
 * HTTP 410: a resourceVersion or continue token is older than the server's history (reasons
 * {@code Expired} and the legacy {@code Gone}). A watcher must relist.
 */
public final class GoneException extends ApiException {

    public GoneException(Status status) {
        super(status);
    }

    GoneException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }

    /** True for reason {@code Expired} (client-go's {@code IsResourceExpired}). */
    public boolean isExpired() {
        return "Expired".equals(status().reason());
    }
}
