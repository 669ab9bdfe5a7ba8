package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 409, an object with that name exists already (reason AlreadyExists). */
public final class AlreadyExistsException extends ApiException {

    public AlreadyExistsException(Status status) {
        super(status);
    }

    AlreadyExistsException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
