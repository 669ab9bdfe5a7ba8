package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 422, the object failed validation (reason Invalid); the causes name each field. */
public final class InvalidException extends ApiException {

    public InvalidException(Status status) {
        super(status);
    }

    InvalidException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
