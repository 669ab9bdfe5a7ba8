package io.kubeloop.controller.endpoints;

/**
 * One named check behind {@code /healthz} or {@code /readyz} (controller-runtime's
 * {@code healthz.Checker}): it passes by returning and fails by throwing, the exception's message
 * being the reason. Checks run on the HTTP server's threads, once per probe, so they must be
 * thread-safe and quick.
 */
@FunctionalInterface
public interface HealthCheck {

    /**
     * Runs the check.
     *
     * @throws Exception why the check fails
     */
    void check() throws Exception;

    /** A check that always passes: the process answers (controller-runtime's {@code healthz.Ping}). */
    static HealthCheck ping() {
        return () -> {};
    }
}
