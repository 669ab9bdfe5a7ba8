package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 405, the verb is not supported on the resource (reason MethodNotAllowed). */
public final class MethodNotAllowedException extends ApiException {

    public MethodNotAllowedException(Status status) {
        super(status);
    }

    MethodNotAllowedException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
