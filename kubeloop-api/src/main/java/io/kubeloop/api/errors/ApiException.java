package io.kubeloop.api.errors;

import java.util.Objects;

/**
 * A failed API call, carrying the server's {@link Status}. One subclass per {@code reason};
 * {@link ApiExceptions#from} picks it by reason first, then by HTTP code. Unchecked, as every
 * kubeloop API error.
 *
 * <p>A plain {@code ApiException} (not a subclass) stands for a reason kubeloop has no class for.
 */
public sealed class ApiException extends RuntimeException
        permits NotFoundException, AlreadyExistsException, ConflictException, InvalidException,
        BadRequestException, UnauthorizedException, ForbiddenException, MethodNotAllowedException,
        GoneException, TooManyRequestsException, InternalErrorException, ApiTimeoutException,
        UnsupportedMediaTypeException, NotAcceptableException, RequestEntityTooLargeException,
        ServiceUnavailableException {

    private final Status status;

    public ApiException(Status status) {
        super(Objects.requireNonNull(status, "status").message());
        this.status = status;
    }

    /** The server's Status (or one built from a non-Status error body). */
    public Status status() {
        return status;
    }

    /** The HTTP status code. */
    public int code() {
        return status.codeOrZero();
    }

    /** The Status reason, or the empty string. */
    public String reason() {
        return status.reasonOrEmpty();
    }
}
