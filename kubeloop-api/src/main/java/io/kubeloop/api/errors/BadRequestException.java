package io.kubeloop.api.errors;

/** HTTP 400, the request was malformed (reason BadRequest). */
public final class BadRequestException extends ApiException {

    public BadRequestException(Status status) {
        super(status);
    }
}
