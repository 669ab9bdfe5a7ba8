package io.kubeloop.api.errors;

/** HTTP 405, the verb is not supported on the resource (reason MethodNotAllowed). */
public final class MethodNotAllowedException extends ApiException {

    public MethodNotAllowedException(Status status) {
        super(status);
    }
}
