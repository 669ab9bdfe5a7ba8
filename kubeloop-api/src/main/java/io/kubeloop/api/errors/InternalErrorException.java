package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 500, the server failed (reason InternalError). */
public final class InternalErrorException extends ApiException {

    public InternalErrorException(Status status) {
        super(status);
    }

    InternalErrorException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
