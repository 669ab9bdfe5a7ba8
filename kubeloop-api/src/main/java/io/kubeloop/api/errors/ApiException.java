package io.kubeloop.api.errors;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A failed API call, carrying the server's {@link Status}. One subclass per {@code reason};
 * {@link ApiExceptions#from} picks it by reason first, then by HTTP code. Unchecked, as every
 * kubeloop API error.
 *
 * <p>A plain {@code ApiException} (not a subclass) stands for a reason and code kubeloop has no
 * class for, e.g. an HTTP 418, or a Status with no reason and code 0.
 *
 * <p>The message is the Status message, as client-go's {@code StatusError.Error()}. Instances are
 * immutable and thread-safe.
 */
public sealed class ApiException extends RuntimeException
        permits NotFoundException,
                AlreadyExistsException,
                ConflictException,
                InvalidException,
                BadRequestException,
                UnauthorizedException,
                ForbiddenException,
                MethodNotAllowedException,
                GoneException,
                TooManyRequestsException,
                InternalErrorException,
                ApiTimeoutException,
                UnsupportedMediaTypeException,
                NotAcceptableException,
                RequestEntityTooLargeException,
                ServiceUnavailableException {

    private final Status status;
    private final Duration retryAfter;

    /** An exception for {@code status}; the retry hint comes from {@code details.retryAfterSeconds}. */
    public ApiException(Status status) {
        this(status, null);
    }

    /**
     * An exception for {@code status} with an explicit retry hint (the Retry-After header); when
     * {@code retryAfter} is null, {@code details.retryAfterSeconds} is used if positive.
     */
    ApiException(Status status, Duration retryAfter) {
        super(message(status));
        this.status = status;
        this.retryAfter = retryAfter != null ? retryAfter : fromDetails(status);
    }

    private static String message(Status status) {
        Objects.requireNonNull(status, "status");
        String m = status.message();
        return m == null || m.isEmpty()
                ? "the server responded with the status code " + status.codeOrZero()
                        + (status.reason() == null || status.reason().isEmpty() ? "" : " (" + status.reason() + ")")
                : m;
    }

    private static Duration fromDetails(Status status) {
        Integer seconds = status.details() == null ? null : status.details().retryAfterSeconds();
        return seconds != null && seconds > 0 ? Duration.ofSeconds(seconds) : null;
    }

    /** The server's Status (or one built from a non-Status error body). */
    public Status status() {
        return status;
    }

    /** The HTTP status code, 0 when unknown. */
    public int code() {
        return status.codeOrZero();
    }

    /** The Status reason, or the empty string. */
    public String reason() {
        return status.reasonOrEmpty();
    }

    /**
     * How long the server asks the client to wait before retrying: the Retry-After header, else a
     * positive {@code details.retryAfterSeconds} (client-go's {@code SuggestsClientDelay}); empty
     * when the server gave no hint.
     */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
