package io.kubeloop.controller;

/**
 * Makes the actual state of one object match its desired state: reads the object (and what it
 * owns), changes what differs through the API server, and records what it saw in the status.
 *
 * <p>How a {@link Controller} treats each outcome (controller-runtime's rules):
 * <ul>
 *   <li>returns {@link Result#done()}: the request's failure count is forgotten;</li>
 *   <li>returns {@link Result#requeueAfter}: the failure count is forgotten and the request is
 *       added again after the delay;</li>
 *   <li>throws a {@link TerminalException} (or an exception caused by one): logged and counted as
 *       an error and a terminal error, not retried — until an event adds the request again;</li>
 *   <li>throws any other {@link Exception}: counted as an error and added again after its
 *       rate-limited back-off (5 ms, 10 ms, 20 ms… up to 1000 s, and at most 10 per second overall
 *       with the default limiter); the failure count keeps growing until a reconcile succeeds. It is
 *       logged at ERROR: one line for an {@link io.kubeloop.api.errors.ApiException}, the API
 *       server's answer, with the stack trace otherwise — except a
 *       {@link io.kubeloop.api.errors.ConflictException} (or an exception caused by one), an
 *       optimistic-concurrency conflict after a stale read, which is routine: logged at DEBUG
 *       only;</li>
 *   <li>throws an {@link Error} other than a {@link VirtualMachineError} — Java's nearest thing to
 *       a Go panic, such as an {@link AssertionError} — recovered by default: counted as a panic and
 *       an error, and retried like an exception. With
 *       {@link ControllerOptions.Builder#recoverPanic(boolean) recoverPanic(false)} it stops the
 *       controller instead ({@link Controller#failure()}). A {@code VirtualMachineError} (out of
 *       memory, stack overflow) is never caught.</li>
 * </ul>
 * Whatever the outcome, the request is marked done in the work queue afterwards, and no two calls
 * for the same request ever run at once, however many workers the controller has.
 *
 * <p>Each call gets a {@link ReconcileContext}: the manager's cache-backed client, an Event
 * recorder, a logger whose MDC names the request, and the cancellation signal that fires when the
 * controller stops. A reconcile that ends because the signal fired (a
 * {@link java.util.concurrent.CancellationException}, or an interrupted call) while the controller
 * stops is neither logged as an error nor requeued.
 *
 * <p>Requests are level-based: a reconciler should not care why it was called, only what the
 * object looks like now; it must be idempotent (it may run again for an object that is already
 * right) and must not assume it sees every intermediate state.
 *
 * <p><b>Thread safety:</b> called concurrently from up to
 * {@link ControllerOptions#maxConcurrentReconciles()} worker threads, each time for a different
 * request; implementations must be safe for that.
 */
@FunctionalInterface
public interface Reconciler {

    /**
     * Reconciles the object named by {@code request}.
     *
     * @param request the object to reconcile
     * @param context the client, event recorder, logger and cancellation signal of this reconcile
     * @return what to do next; not null
     * @throws Exception to have the request retried with back-off (or not at all, for a
     *     {@link TerminalException})
     */
    Result reconcile(Request request, ReconcileContext context) throws Exception;
}
