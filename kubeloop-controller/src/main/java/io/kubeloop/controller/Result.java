package io.kubeloop.controller;

import io.kubeloop.time.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * What a successful {@link Reconciler#reconcile} asks of its controller next: nothing (the usual
 * answer) or another run after a delay. A reconcile that fails throws instead, and runs again after
 * its rate-limited back-off; see {@link Reconciler} for how each outcome is handled. (controller-runtime's
 * {@code Requeue: true}, a rate-limited retry that is not a failure, is deprecated there as confusing and
 * has no counterpart here.)
 *
 * <p>Values are immutable and thread-safe.
 *
 * @see <a href="https://github.com/kubernetes-sigs/controller-runtime/blob/main/pkg/reconcile/reconcile.go">controller-runtime reconcile.Result</a>
 */
public sealed interface Result permits Result.Done, Result.RequeueAfter {

    /**
     * Done: the object is as it should be. The controller forgets the request's failure count.
     *
     * @return the done result (a constant)
     */
    static Result done() {
        return Done.INSTANCE;
    }

    /**
     * Run again after {@code delay}: the failure count is forgotten and the request is added after
     * the delay — unless it is added sooner by an event, in which case it runs then (once).
     *
     * @param delay how long to wait; must be positive
     * @return the result
     * @throws IllegalArgumentException if {@code delay} is zero or negative
     */
    static Result requeueAfter(Duration delay) {
        return new RequeueAfter(delay);
    }

    /** Nothing more to do. */
    enum Done implements Result {
        INSTANCE;

        @Override
        public String toString() {
            return "Result.done()";
        }
    }

    /**
     * Run again after a fixed delay.
     *
     * @param delay how long to wait; positive
     */
    record RequeueAfter(Duration delay) implements Result {

        public RequeueAfter {
            Objects.requireNonNull(delay, "delay");
            if (delay.isZero() || delay.isNegative()) {
                throw new IllegalArgumentException("requeueAfter needs a positive delay, got " + Durations.format(delay)
                        + "; return Result.done(), or throw to retry after the back-off");
            }
        }
    }
}
