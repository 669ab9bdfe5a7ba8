package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 404, the object or resource does not exist (reason NotFound). */
public final class NotFoundException extends ApiException {

    public NotFoundException(Status status) {
        super(status);
    }

    NotFoundException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
