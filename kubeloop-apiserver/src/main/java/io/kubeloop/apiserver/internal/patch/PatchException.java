package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.errors.Status;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A patch or apply that the API server must refuse, carrying exactly what the real
 * kube-apiserver answers: the HTTP code, the Kubernetes {@code reason} and the {@code message}, plus
 * causes where the real server lists them (one {@code FieldManagerConflict} per conflicting field).
 *
 * <p>The statuses follow apiserver's {@code endpoints/handlers/patch.go}:
 * <ul>
 *   <li>400 {@code BadRequest}: the patch body is not a JSON patch / merge patch / strategic merge patch
 *       document, or uses a strategic-merge directive in a malformed way;</li>
 *   <li>413 {@code RequestEntityTooLarge}: a JSON patch of more than 10,000 operations;</li>
 *   <li>422 {@code Invalid}: a JSON patch operation that does not apply (failed {@code test}, missing
 *       path); the real server then says only "the server rejected our request due to an error in our
 *       request" — the precise reason is kept in {@link #detail()} for logs;</li>
 *   <li>409 {@code Conflict}: a server-side apply conflict without {@code force};</li>
 *   <li>500 with an empty reason: strategic-merge errors the real server does not classify (a list item
 *       without its merge key, mixed element types), with the Go error text as message.</li>
 * </ul>
 * The server converts it with {@link #toStatus()}; it never needs to look at the message.
 *
 * <p>Immutable and thread-safe.
 */
public final class PatchException extends RuntimeException {

    /** The message the real server gives for a JSON patch that does not apply (and a few SMP errors). */
    public static final String GENERIC_INVALID = "the server rejected our request due to an error in our request";

    private final int code;
    private final String reason;
    private final String detail;
    private final List<Status.Cause> causes;

    private PatchException(int code, String reason, String message, String detail, List<Status.Cause> causes) {
        super(message);
        this.code = code;
        this.reason = Objects.requireNonNull(reason, "reason");
        this.detail = detail == null ? message : detail;
        this.causes = List.copyOf(causes);
    }

    /** 400 BadRequest with the given message. */
    public static PatchException badRequest(String message) {
        return new PatchException(400, "BadRequest", message, null, List.of());
    }

    /** 413 RequestEntityTooLarge; the message gets the real server's "Request entity too large: " prefix. */
    public static PatchException tooLarge(String message) {
        return new PatchException(
                413, "RequestEntityTooLarge", "Request entity too large: " + message, null, List.of());
    }

    /** 422 Invalid with the real server's generic message; {@code detail} says what actually failed. */
    public static PatchException genericInvalid(String detail) {
        return new PatchException(422, "Invalid", GENERIC_INVALID, detail, List.of());
    }

    /** 422 Invalid with a message and causes. */
    public static PatchException invalid(String message, List<Status.Cause> causes) {
        return new PatchException(422, "Invalid", message, null, causes);
    }

    /** 409 Conflict (server-side apply) with one cause per conflicting field. */
    public static PatchException conflict(String message, List<Status.Cause> causes) {
        return new PatchException(409, "Conflict", message, null, causes);
    }

    /** 500 with an empty reason: an error the real server passes through unclassified. */
    public static PatchException unclassified(String message) {
        return new PatchException(500, "", message, null, List.of());
    }

    /** The HTTP status code the server must answer. */
    public int code() {
        return code;
    }

    /** The Kubernetes reason ({@code BadRequest}, {@code Invalid}, ...); empty for an unclassified error. */
    public String reason() {
        return reason;
    }

    /** What exactly went wrong; equals the message unless the real server hides it behind a generic one. */
    public String detail() {
        return detail;
    }

    /** The causes for {@code status.details.causes}; empty when the real server lists none. */
    public List<Status.Cause> causes() {
        return causes;
    }

    /** The failure {@code Status} the server answers with. */
    public Status toStatus() {
        Status.Details details = causes.isEmpty() ? null : new Status.Details(null, null, null, null, causes, null);
        return new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                getMessage(),
                reason.isEmpty() ? null : reason,
                details,
                code);
    }
}
