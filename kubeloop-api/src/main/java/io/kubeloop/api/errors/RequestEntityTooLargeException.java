package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 413, the request body is too large. */
public final class RequestEntityTooLargeException extends ApiException {

    public RequestEntityTooLargeException(Status status) {
        super(status);
    }

    RequestEntityTooLargeException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
