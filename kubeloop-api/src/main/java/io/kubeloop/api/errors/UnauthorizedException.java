package io.kubeloop.api.errors;

/** HTTP 401, the credentials are missing or wrong (reason Unauthorized). */
public final class UnauthorizedException extends ApiException {

    public UnauthorizedException(Status status) {
        super(status);
    }
}
