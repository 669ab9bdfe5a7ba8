package io.kubeloop.apiserver.internal.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.kubeloop.api.errors.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The state of validating one object: the causes found so far and the cost budget left. Cost is
 * counted in evaluated expressions (every operator, call, selection and comprehension step); a call
 * may use at most its per-call limit, all calls together the object's budget.
 *
 * <p>Not thread-safe: one per {@link CelRules#validate} call.
 */
final class RuleEvaluation {

    /** A program ran past its cost limit. */
    static final class CostLimitExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CostLimitExceeded() {
            super("operation cancelled: actual cost limit exceeded", null, false, false);
        }
    }

    private final List<Status.Cause> causes = new ArrayList<>();
    private final long perCallLimit;
    private long remaining;
    private boolean exhausted;

    RuleEvaluation(long budget, long perCallLimit) {
        this.remaining = budget;
        this.perCallLimit = perCallLimit;
    }

    /**
     * Runs {@code program}, charging its cost.
     *
     * @throws CostLimitExceeded past the per-call limit or the remaining budget
     * @throws CelEvaluationException on an evaluation error
     */
    Object run(CelRuntime.Program program, Map<String, ?> activation) throws CelEvaluationException {
        long limit = Math.min(perCallLimit, remaining);
        long[] used = {0};
        try {
            return program.trace(activation, (expr, result) -> {
                if (++used[0] > limit) {
                    throw new CostLimitExceeded();
                }
            });
        } catch (CelEvaluationException e) {
            if (e.getCause() instanceof CostLimitExceeded c) {
                throw c;
            }
            throw e;
        } finally {
            remaining -= Math.min(used[0], limit);
        }
    }

    /** True once the budget is spent: no further rule runs. */
    boolean exhausted() {
        return exhausted || remaining <= 0;
    }

    /** Stops all further evaluation. */
    void exhaust() {
        exhausted = true;
    }

    /** True when the per-call limit, not the object budget, bounds the next call. */
    boolean perCallBound() {
        return perCallLimit <= remaining;
    }

    void add(Status.Cause cause) {
        causes.add(cause);
    }

    List<Status.Cause> causes() {
        return List.copyOf(causes);
    }
}
