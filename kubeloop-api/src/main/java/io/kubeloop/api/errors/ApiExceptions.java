package io.kubeloop.api.errors;

import java.time.Duration;

/**
 * Maps a server reply to the right {@link ApiException}: by {@code reason} first, then by HTTP
 * code (client-go's {@code errors.FromObject} / {@code reasonForError} rules). Stateless.
 */
public final class ApiExceptions {

    private ApiExceptions() {
    }

    /**
     * The exception for a failed reply.
     *
     * @param httpCode the HTTP status of the reply
     * @param contentType the reply's Content-Type, may be null
     * @param body the reply body, may be empty
     * @param retryAfter the Retry-After header's value, null if absent
     */
    public static ApiException from(int httpCode, String contentType, byte[] body, Duration retryAfter) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The exception for a Status object (e.g. from a watch ERROR event). */
    public static ApiException from(Status status) {
        throw new UnsupportedOperationException("TODO");
    }
}
