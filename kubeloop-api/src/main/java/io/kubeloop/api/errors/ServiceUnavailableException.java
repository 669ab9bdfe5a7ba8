package io.kubeloop.api.errors;

/** HTTP 503, the server is not ready (reason ServiceUnavailable). */
public final class ServiceUnavailableException extends ApiException {

    public ServiceUnavailableException(Status status) {
        super(status);
    }
}
