package io.kubeloop.api.errors;

/** HTTP 500, the server failed (reason InternalError). */
public final class InternalErrorException extends ApiException {

    public InternalErrorException(Status status) {
        super(status);
    }
}
