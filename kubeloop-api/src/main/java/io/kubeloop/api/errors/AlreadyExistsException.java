package io.kubeloop.api.errors;

/** HTTP 409, an object with that name exists already (reason AlreadyExists). */
public final class AlreadyExistsException extends ApiException {

    public AlreadyExistsException(Status status) {
        super(status);
    }
}
