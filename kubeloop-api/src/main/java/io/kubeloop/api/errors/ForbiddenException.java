package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 403, the caller may not do this (reason Forbidden). */
public final class ForbiddenException extends ApiException {

    public ForbiddenException(Status status) {
        super(status);
    }

    ForbiddenException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
