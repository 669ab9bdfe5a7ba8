package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 400, the request was malformed (reason BadRequest). */
public final class BadRequestException extends ApiException {

    public BadRequestException(Status status) {
        super(status);
    }

    BadRequestException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
