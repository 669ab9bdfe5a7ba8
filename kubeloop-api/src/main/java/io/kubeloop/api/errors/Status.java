package io.kubeloop.api.errors;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The server's {@code Status} object ({@code meta.k8s.io/v1}), returned for errors and for some
 * deletions.
 *
 * @param kind always {@code Status}
 * @param apiVersion {@code v1}
 * @param metadata list metadata; on a 410 for an expired continue token, {@code continue} may be set
 * @param status {@code Success} or {@code Failure}
 * @param message a human-readable description
 * @param reason a machine-readable reason such as {@code NotFound}; may be empty
 * @param details extra data about the failure
 * @param code the HTTP status code, 0 if not set
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Status(
        String kind,
        String apiVersion,
        Map<String, Object> metadata,
        String status,
        String message,
        String reason,
        Details details,
        Integer code) {

    public static final String SUCCESS = "Success";
    public static final String FAILURE = "Failure";

    /** A failure Status with the given code, reason and message. */
    public static Status failure(int code, String reason, String message) {
        return new Status("Status", "v1", Map.of(), FAILURE, message, reason, null, code);
    }

    /** The HTTP code, or 0 when the server did not set it. */
    public int codeOrZero() {
        return code == null ? 0 : code;
    }

    /** The reason, or the empty string. */
    public String reasonOrEmpty() {
        return reason == null ? "" : reason;
    }

    /** The causes in {@code details}, or an empty list. */
    public List<Cause> causes() {
        return details == null || details.causes() == null ? List.of() : details.causes();
    }

    /**
     * {@code status.details}.
     *
     * @param name the name of the object concerned
     * @param group its API group
     * @param kind the plural resource for NotFound/AlreadyExists/Conflict, the Kind for Invalid
     * @param uid its uid
     * @param causes the individual problems, e.g. one per invalid field
     * @param retryAfterSeconds how long the client should wait before retrying
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Details(
            String name, String group, String kind, String uid, List<Cause> causes, Integer retryAfterSeconds) {}

    /**
     * One cause of a failure.
     *
     * @param reason e.g. {@code FieldValueInvalid}, {@code FieldValueRequired}
     * @param message a human-readable description
     * @param field the path of the field concerned, e.g. {@code metadata.name}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Cause(String reason, String message, String field) {}
}
