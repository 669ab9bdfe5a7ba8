package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 415, the body's Content-Type is not supported, e.g. strategic merge patch on a custom resource. */
public final class UnsupportedMediaTypeException extends ApiException {

    public UnsupportedMediaTypeException(Status status) {
        super(status);
    }

    UnsupportedMediaTypeException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
