package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 503, the server is not ready (reason ServiceUnavailable). */
public final class ServiceUnavailableException extends ApiException {

    public ServiceUnavailableException(Status status) {
        super(status);
    }

    ServiceUnavailableException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
