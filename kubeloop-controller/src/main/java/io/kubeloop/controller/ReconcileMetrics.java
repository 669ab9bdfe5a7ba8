package io.kubeloop.controller;

/**
 * The metric hooks of one controller. {@link #NOOP} when metrics are off, so the worker loop pays
 * nothing for them; {@link MicrometerReconcileMetrics} otherwise.
 *
 * <p><b>Thread safety:</b> implementations are called from every worker thread at once.
 */
interface ReconcileMetrics {

    /** How a reconcile ended, the {@code result} tag of the reconcile counter. */
    enum Outcome {
        SUCCESS("success"),
        ERROR("error"),
        /**
         * controller-runtime's {@code Requeue: true}, which kubeloop's {@link Result} does not offer: never
         * counted, but its series exists at zero, as controller-runtime's does, for dashboards that sum it.
         */
        REQUEUE("requeue"),
        REQUEUE_AFTER("requeue_after");

        final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    /** Metrics off. */
    ReconcileMetrics NOOP = new ReconcileMetrics() {};

    /** Whether {@link #reconciled} wants durations (so the worker reads the clock only if so). */
    default boolean timed() {
        return false;
    }

    /** A worker started ({@code +1}) or finished ({@code -1}) a reconcile. */
    default void activeWorkers(int delta) {}

    /**
     * A reconcile ended.
     *
     * @param outcome how
     * @param nanos how long it took, if {@link #timed()}
     */
    default void reconciled(Outcome outcome, long nanos) {}

    /** A reconcile threw (any failure, terminal or not). */
    default void error() {}

    /** A reconcile threw a terminal failure. */
    default void terminalError() {}

    /** A reconcile threw an {@link Error} that was recovered. */
    default void panic() {}
}
