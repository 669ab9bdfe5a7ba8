package io.kubeloop.api;

import java.time.InstantSource;
import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and changes a list of {@link Condition}s as apimachinery's {@code meta} package does
 * ({@code SetStatusCondition}, {@code FindStatusCondition}, {@code RemoveStatusCondition},
 * {@code IsStatusConditionTrue}, {@code IsStatusConditionFalse},
 * {@code IsStatusConditionPresentAndEqual}).
 *
 * {@snippet :
 * List<Condition> conditions = new ArrayList<>(foo.status().conditions());   // a list this code may change
 * boolean changed = Conditions.setStatusCondition(conditions,
 *         Condition.of("Ready", Condition.Status.TRUE, "DeploymentAvailable", "3/3 replicas available")
 *                 .withObservedGeneration(foo.metadata().generation()),
 *         ticker);                                                            // the one clock
 * }
 *
 * <p>The setter keeps a condition's {@code lastTransitionTime} unless its status changes, so a
 * reconciler that sets the same conditions again writes the same status: nothing changes on the
 * server, and the object is not reconciled again because of it. Times come from the clock passed in
 * (kubeloop's {@code Ticker} is an {@link InstantSource}), at seconds precision, as
 * {@code metav1.Time} is written.
 *
 * <p>The changing methods change the list passed in (which must then be mutable); the readers
 * accept any list. Stateless; thread-safe as far as the lists are.
 */
public final class Conditions {

    private Conditions() {}

    /**
     * Sets {@code condition} in {@code conditions}: a condition of a new type is appended, with its
     * {@code lastTransitionTime} or else now; an existing one of the same type takes the new
     * status, reason, message and observed generation, and a new {@code lastTransitionTime} only
     * when its status changes (the new condition's time if it has one, else now).
     *
     * @param conditions the conditions, changed in place
     * @param condition the condition to set
     * @param clock what "now" is
     * @return whether the list changed
     * @throws UnsupportedOperationException if the list must change and cannot
     */
    public static boolean setStatusCondition(List<Condition> conditions, Condition condition, InstantSource clock) {
        Objects.requireNonNull(conditions, "conditions");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(clock, "clock");
        ListIterator<Condition> it = conditions.listIterator();
        while (it.hasNext()) {
            Condition existing = it.next();
            if (!existing.type().equals(condition.type())) {
                continue;
            }
            var transitioned = existing.lastTransitionTime();
            if (existing.status() != condition.status()) {
                transitioned =
                        condition.lastTransitionTime() != null ? condition.lastTransitionTime() : clock.instant();
            }
            Condition next = new Condition(
                    existing.type(),
                    condition.status(),
                    condition.observedGeneration(),
                    transitioned,
                    condition.reason(),
                    condition.message());
            if (next.equals(existing)) {
                return false;
            }
            it.set(next);
            return true;
        }
        conditions.add(
                condition.lastTransitionTime() != null ? condition : condition.withLastTransitionTime(clock.instant()));
        return true;
    }

    /**
     * The condition of {@code type}, if there is one.
     *
     * @param conditions the conditions (null reads as none)
     * @param type the type
     * @return the first condition of that type
     */
    public static Optional<Condition> findStatusCondition(List<Condition> conditions, String type) {
        Objects.requireNonNull(type, "type");
        if (conditions == null) {
            return Optional.empty();
        }
        for (Condition c : conditions) {
            if (c != null && type.equals(c.type())) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * Removes every condition of {@code type}.
     *
     * @param conditions the conditions, changed in place
     * @param type the type
     * @return whether one was removed
     */
    public static boolean removeStatusCondition(List<Condition> conditions, String type) {
        Objects.requireNonNull(conditions, "conditions");
        Objects.requireNonNull(type, "type");
        return conditions.removeIf(c -> c != null && type.equals(c.type()));
    }

    /**
     * Whether the condition of {@code type} is present with {@code status}.
     *
     * @param conditions the conditions (null reads as none)
     * @param type the type
     * @param status the status
     * @return true when present and equal
     */
    public static boolean isStatusConditionPresentAndEqual(
            List<Condition> conditions, String type, Condition.Status status) {
        Objects.requireNonNull(status, "status");
        return findStatusCondition(conditions, type)
                .map(c -> c.status() == status)
                .orElse(false);
    }

    /**
     * Whether the condition of {@code type} is present and {@link Condition.Status#TRUE}.
     *
     * @param conditions the conditions (null reads as none)
     * @param type the type
     * @return true when present and true
     */
    public static boolean isStatusConditionTrue(List<Condition> conditions, String type) {
        return isStatusConditionPresentAndEqual(conditions, type, Condition.Status.TRUE);
    }

    /**
     * Whether the condition of {@code type} is present and {@link Condition.Status#FALSE}.
     *
     * @param conditions the conditions (null reads as none)
     * @param type the type
     * @return true when present and false
     */
    public static boolean isStatusConditionFalse(List<Condition> conditions, String type) {
        return isStatusConditionPresentAndEqual(conditions, type, Condition.Status.FALSE);
    }
}
