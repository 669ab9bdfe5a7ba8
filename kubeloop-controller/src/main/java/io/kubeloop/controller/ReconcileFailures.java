package io.kubeloop.controller;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.Causes;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link DefaultController} does with a reconcile that threw: count it, requeue it after
 * back-off unless it is terminal, and log it at the level its kind deserves (a conflict at debug, an
 * API server's answer in one line, anything else with its stack trace). Also tells a failure caused by
 * the controller's own stop from a real one.
 *
 * <p>Invariants: a terminal failure is never requeued; every other failure is requeued rate-limited
 * exactly once; each failure counts once as an error.
 *
 * <p><b>Thread safety:</b> immutable; called by the controller's workers at once, each for the request
 * it holds. The queue and the metrics are thread-safe. Package-private: it needs
 * {@link ReconcileMetrics}.
 */
final class ReconcileFailures {

    /** The controllers' logger: failures log as they always have. */
    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);

    private final String name;
    private final RateLimitingQueue<Request> queue;
    private final ReconcileMetrics metrics;

    ReconcileFailures(String name, RateLimitingQueue<Request> queue, ReconcileMetrics metrics) {
        this.name = name;
        this.queue = queue;
        this.metrics = metrics;
    }

    /** Counts, requeues (unless terminal) and logs the failed reconcile of {@code request}. */
    void failed(Request request, Throwable e, String kind) {
        metrics.error();
        if (TerminalException.isTerminal(e)) {
            metrics.terminalError();
            LOG.error(
                    "controller {}: reconcile of {} failed terminally, not requeued: {}",
                    name,
                    request,
                    e.toString(),
                    e);
            return;
        }
        queue.addRateLimited(request);
        if (isConflict(e)) {
            // optimistic concurrency: the reconciler wrote over a stale read (its cache was behind, or
            // another writer was first); routine, and the retry reads again, so debug level only
            LOG.debug(
                    "controller {}: reconcile of {} hit a conflict, requeued after back-off: {}",
                    name,
                    request,
                    e.toString());
        } else if (e instanceof ApiException) {
            // an answer of the API server (a conflict with a stale cache, a missing object): expected in
            // operation and retried, so one line; the stack trace only at debug level
            LOG.error(
                    "controller {}: reconcile of {} failed ({}), requeued after back-off: {}",
                    name,
                    request,
                    kind,
                    e.toString());
            LOG.debug("controller {}: reconcile of {} failed", name, request, e);
        } else {
            LOG.error(
                    "controller {}: reconcile of {} failed ({}), requeued after back-off: {}",
                    name,
                    request,
                    kind,
                    e.toString(),
                    e);
        }
    }

    /** Whether {@code failure} is, or was caused by, the cancellation or an interrupt. */
    static boolean isCancellation(Throwable failure) {
        return Causes.chain(failure).stream()
                        .anyMatch(t -> t instanceof CancellationException || t instanceof InterruptedException)
                || Thread.currentThread().isInterrupted();
    }

    /** Whether {@code failure} is, or was caused by, a 409 Conflict ({@link ConflictException}). */
    private static boolean isConflict(Throwable failure) {
        return Causes.has(failure, ConflictException.class);
    }
}
