package io.kubeloop.api.errors;

import java.time.Duration;
import java.util.List;

/** HTTP 422, the object failed validation (reason Invalid); the causes name each field. */
public final class InvalidException extends ApiException {

    public InvalidException(Status status) {
        super(status);
    }

    InvalidException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }

    /** One cause per invalid field ({@code FieldValueInvalid}, {@code FieldValueRequired}, ...); may be empty. */
    public List<Status.Cause> causes() {
        return status().causes();
    }
}
