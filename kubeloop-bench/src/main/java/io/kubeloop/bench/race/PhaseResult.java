package io.kubeloop.bench.race;

/**
 * One timed phase of a race round (creating the Foos, or rescaling them).
 *
 * @param ran whether the phase ran (the scale phase runs only after the create phase converged)
 * @param converged whether every Foo converged before the timeout
 * @param nanos first harness request → every Foo converged (as the harness's informers saw it), or the
 *     timeout when not converged
 * @param convergedFoos the Foos converged at the end of the phase
 * @param sendNanos first → last harness request answered
 * @param cpuNanos the operator process's CPU time during the phase
 * @param serverCpuNanos the harness JVM's CPU time during the phase: the API server with its built-in
 *     controllers, plus the harness's own requests and informers (the same work for every contender)
 */
record PhaseResult(
        boolean ran,
        boolean converged,
        long nanos,
        int convergedFoos,
        long sendNanos,
        long cpuNanos,
        long serverCpuNanos) {

    /** A phase that did not run. */
    static PhaseResult notRun() {
        return new PhaseResult(false, false, 0, 0, 0, 0, 0);
    }

    /** The phase's time in seconds; NaN when it did not converge. */
    double seconds() {
        return converged ? nanos / 1e9 : Double.NaN;
    }
}
