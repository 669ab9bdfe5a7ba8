package io.kubeloop.api.errors;

import java.time.Duration;

/** HTTP 504 or 500, the server timed out (reasons Timeout and ServerTimeout). */
public final class ApiTimeoutException extends ApiException {

    public ApiTimeoutException(Status status) {
        super(status);
    }

    ApiTimeoutException(Status status, Duration retryAfter) {
        super(status, retryAfter);
    }
}
