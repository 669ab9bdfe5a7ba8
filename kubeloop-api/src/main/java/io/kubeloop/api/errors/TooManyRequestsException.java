package io.kubeloop.api.errors;

import java.time.Duration;
import java.util.Optional;

/** HTTP 429, the server asks the client to slow down (reason TooManyRequests), with Retry-After. */
public final class TooManyRequestsException extends ApiException {

    private final Duration retryAfter;

    public TooManyRequestsException(Status status, Duration retryAfter) {
        super(status);
        this.retryAfter = retryAfter;
    }

    /** How long to wait before retrying, from the Retry-After header or {@code details.retryAfterSeconds}. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
