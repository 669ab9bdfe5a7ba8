package io.kubeloop.testing.crd;

import java.io.Serial;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A CustomResourceDefinition the server did not establish in time, with its conditions as they last
 * were: typically {@code NamesAccepted=False} because another CRD of the group already took a name
 * ({@code ListKindConflict}, {@code PluralConflict}…), or no conditions at all when the server never got
 * to it.
 */
public final class CrdNotEstablishedException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * One condition of the CRD's status.
     *
     * @param type e.g. {@code NamesAccepted}, {@code Established}
     * @param status {@code True}, {@code False} or {@code Unknown}
     * @param reason the machine-readable reason, e.g. {@code ListKindConflict}
     * @param message the human-readable explanation
     */
    public record Condition(String type, String status, String reason, String message) {
        @Override
        public String toString() {
            return type + "=" + status + " (" + reason + (message.isEmpty() ? "" : ": " + message) + ")";
        }
    }

    private final String crd;
    private final transient List<Condition> conditions;

    CrdNotEstablishedException(String crd, Duration timeout, List<Condition> conditions) {
        super("CustomResourceDefinition " + crd + " was not established within " + timeout.toMillis() + " ms: "
                + (conditions.isEmpty()
                        ? "no conditions"
                        : conditions.stream().map(Condition::toString).collect(Collectors.joining(", "))));
        this.crd = crd;
        this.conditions = List.copyOf(conditions);
    }

    /** The CRD's name, e.g. {@code foos.example.com}. */
    public String crd() {
        return crd;
    }

    /** Its status conditions when the wait ended. */
    public List<Condition> conditions() {
        return conditions;
    }

    /** The reasons of the conditions that were not {@code True}, e.g. {@code [ListKindConflict, NotAccepted]}. */
    public List<String> reasons() {
        return conditions.stream()
                .filter(c -> !c.status().equals("True"))
                .map(Condition::reason)
                .toList();
    }
}
