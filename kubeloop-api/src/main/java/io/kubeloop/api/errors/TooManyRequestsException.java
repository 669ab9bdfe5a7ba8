package io.kubeloop.api.errors;

import java.time.Duration;
import java.util.Optional;

/**
 * HTTP 429, the server asks the client to slow down (reason TooManyRequests), usually with a
 * Retry-After hint ({@link #retryAfter()}).
 */
public final class TooManyRequestsException extends ApiException {

    /**
     * @param retryAfter the Retry-After header's value; null to use {@code details.retryAfterSeconds}
     */
    public TooManyRequestsException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }

    /** How long to wait before retrying, from the Retry-After header or {@code details.retryAfterSeconds}. */
    @Override
    public Optional<Duration> retryAfter() {
        return super.retryAfter();
    }
}
