package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 406, the server cannot produce the Accept type. */
public final class NotAcceptableException extends ApiException {

    public NotAcceptableException(Status status) {
        super(status);
    }

    NotAcceptableException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
