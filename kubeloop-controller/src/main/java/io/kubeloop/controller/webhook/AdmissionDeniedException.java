package io.kubeloop.controller.webhook;

/**
 * Thrown by a {@link Validator} (or {@link Defaulter}) to refuse a request: the API server answers the
 * client {@code admission webhook "<name>" denied the request: <message>} with {@link #code()}.
 */
public final class AdmissionDeniedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;

    /** A refusal with code 403. */
    public AdmissionDeniedException(String message) {
        this(message, 403);
    }

    /** A refusal with {@code code} (at least 400). */
    public AdmissionDeniedException(String message, int code) {
        super(message, null, false, false);
        if (code < 400 || code > 599) {
            throw new IllegalArgumentException("code must be 400-599: " + code);
        }
        this.code = code;
    }

    /** The HTTP code the API server answers with. */
    public int code() {
        return code;
    }
}
