package io.kubeloop.api.errors;

/** HTTP 406, the server cannot produce the Accept type. */
public final class NotAcceptableException extends ApiException {

    public NotAcceptableException(Status status) {
        super(status);
    }
}
