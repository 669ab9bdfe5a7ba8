package io.kubeloop.api.errors;

/** HTTP 413, the request body is too large. */
public final class RequestEntityTooLargeException extends ApiException {

    public RequestEntityTooLargeException(Status status) {
        super(status);
    }
}
