package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 401, the credentials are missing or wrong (reason Unauthorized). */
public final class UnauthorizedException extends ApiException {

    public UnauthorizedException(Status status) {
        super(status);
    }

    UnauthorizedException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
