package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 409, the write lost an optimistic-concurrency race or a precondition failed (reason Conflict); re-read and retry. */
public final class ConflictException extends ApiException {

    public ConflictException(Status status) {
        super(status);
    }

    ConflictException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
