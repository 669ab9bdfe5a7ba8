package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.apiserver.internal.registry.ApiErrors.FieldError;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The protection of the Kubernetes project's API groups (KEP-2337): a CRD whose group is {@code k8s.io},
 * {@code kubernetes.io} or a subdomain of either must say in the annotation
 * {@value #ANNOTATION} where its API was approved (a URL) or that it is not ({@code unapproved…}).
 *
 * <ul>
 *   <li>{@link #validate}: a create without the annotation, or with any other value, is refused (422);
 *       an update is refused only when it changes the annotation's state (missing, invalid, approved,
 *       unapproved) to missing or invalid, so a CRD stored before the rule, or a client that only changes
 *       the spec, still writes.
 *   <li>{@link #condition}: the {@value #CONDITION} condition a CRD in a protected group carries: True
 *       ({@code ApprovedAnnotation}) for a URL, False for {@code UnapprovedAnnotation},
 *       {@code MissingAnnotation} or {@code InvalidAnnotation}; none for other groups.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class ApiApproval {

    /** The annotation a CRD in a protected group needs. */
    static final String ANNOTATION = "api-approved.kubernetes.io";

    /** The condition type reporting the annotation's state. */
    static final String CONDITION = "KubernetesAPIApprovalPolicyConformant";

    private static final String FIELD = "metadata.annotations[" + ANNOTATION + "]";
    private static final String POLICY = "see https://github.com/kubernetes/enhancements/pull/1111";

    /** A scheme, {@code //} and the authority (up to the path or the query). */
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://([^/?]*)");

    /** ASCII characters Go's URL parser refuses in a host name. */
    private static final String NOT_IN_HOST = " #\\^`{|}";

    /** What the annotation says. */
    enum State {
        /** A value that is neither a URL nor starts with {@code unapproved}. */
        INVALID,
        /** A URL with a scheme and a host: where the API was reviewed. */
        APPROVED,
        /** A value starting with {@code unapproved} (case matters): allowed, but not conformant. */
        BYPASSED,
        /** No annotation or an empty value. */
        MISSING
    }

    /** A state and the reason given for it (the condition's message, the 422's detail). */
    record Approval(State state, String reason) {}

    /** A condition to set: its status, reason and message. */
    record Condition(boolean status, String reason, String message) {}

    private ApiApproval() {}

    /** Whether {@code group} belongs to the Kubernetes project: {@code k8s.io}, {@code kubernetes.io} or below. */
    static boolean isProtected(String group) {
        return group.equals("k8s.io")
                || group.endsWith(".k8s.io")
                || group.equals("kubernetes.io")
                || group.endsWith(".kubernetes.io");
    }

    /** The approval state of a CRD's {@code metadata.annotations}. */
    static Approval of(JsonNode crd) {
        String value = crd.path("metadata").path("annotations").path(ANNOTATION).asString("");
        if (value.isEmpty()) {
            return new Approval(
                    State.MISSING, "protected groups must have approval annotation \"" + ANNOTATION + "\", " + POLICY);
        }
        if (value.startsWith("unapproved")) {
            return new Approval(State.BYPASSED, "not approved: " + goQuote(value));
        }
        if (isUrl(value)) {
            return new Approval(State.APPROVED, "approved in " + value);
        }
        return new Approval(
                State.INVALID,
                "protected groups must have approval annotation \"" + ANNOTATION
                        + "\" with either a URL or a reason starting with \"unapproved\", " + POLICY);
    }

    /**
     * The problem with {@code crd}'s approval annotation, if any.
     *
     * @param crd the CRD to be stored
     * @param old the stored CRD on update, null on create
     */
    static Optional<FieldError> validate(JsonNode crd, JsonNode old) {
        if (!isProtected(crd.path("spec").path("group").asString(""))) {
            return Optional.empty();
        }
        Approval approval = of(crd);
        if (old != null && of(old).state() == approval.state()) {
            return Optional.empty(); // unchanged: never fails, so a CRD stored without it can still be updated
        }
        return switch (approval.state()) {
            case APPROVED, BYPASSED -> Optional.empty();
            case MISSING -> Optional.of(FieldError.required(FIELD, approval.reason()));
            case INVALID ->
                Optional.of(FieldError.invalid(
                        FIELD,
                        crd.path("metadata")
                                .path("annotations")
                                .path(ANNOTATION)
                                .asString(""),
                        approval.reason()));
        };
    }

    /** The {@value #CONDITION} condition for {@code crd}, or empty for a group that is not protected. */
    static Optional<Condition> condition(JsonNode crd) {
        if (!isProtected(crd.path("spec").path("group").asString(""))) {
            return Optional.empty();
        }
        Approval approval = of(crd);
        return Optional.of(
                switch (approval.state()) {
                    case APPROVED -> new Condition(true, "ApprovedAnnotation", approval.reason());
                    case BYPASSED -> new Condition(false, "UnapprovedAnnotation", approval.reason());
                    case MISSING -> new Condition(false, "MissingAnnotation", approval.reason());
                    case INVALID -> new Condition(false, "InvalidAnnotation", approval.reason());
                });
    }

    /**
     * Whether {@code value} is a URL with a scheme and a host, as Go's {@code url.ParseRequestURI} reads one:
     * no control characters, a scheme ({@code https}), {@code //}, and an authority whose host (after any
     * {@code user@}) is not empty and has no character Go refuses in a host name.
     */
    private static boolean isUrl(String value) {
        if (value.chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
            return false;
        }
        Matcher url = URL.matcher(value);
        if (!url.lookingAt()) {
            return false;
        }
        String authority = url.group(1);
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        return !host.isEmpty() && host.chars().noneMatch(c -> NOT_IN_HOST.indexOf(c) >= 0);
    }

    /** {@code s} as Go's {@code %q} writes it for printable ASCII and common escapes. */
    private static String goQuote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
