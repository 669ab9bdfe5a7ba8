package io.kubeloop.client;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.Causes;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a condition on the cluster as client-go's {@code wait.PollUntilContextTimeout} does with
 * {@code immediate} set — checked at once, then every interval, until a deadline — and rides out the
 * failures a healthy cluster has now and then on the way, as a start-up wait must (a CRD becoming
 * established, an object appearing). client-go leaves that to each condition function (which returns
 * {@code false, nil} for errors worth retrying); here the helper decides, once for every caller:
 * <ul>
 *   <li>a <em>transient</em> failure ({@link #isTransient}: 429, any 5xx, a broken or refused
 *       connection) is retried after a back-off — the interval doubling with each failure in a row
 *       (10 % jitter) up to {@link #MAX_BACKOFF}, or the server's {@code Retry-After} when longer (at
 *       most 30 s) — never past the deadline;</li>
 *   <li>any other failure (403, 404, 422 and the like, or a bug in the condition) is thrown at once,
 *       unchanged;</li>
 *   <li>at the deadline the condition is checked one last time; then {@link #until} throws an
 *       {@link IllegalStateException} naming what it waited for and the last transient failure (its
 *       cause), and {@link #poll} returns false.</li>
 * </ul>
 *
 * {@snippet :
 * Wait.until("CRD foos.samplecontroller.k8s.io to be established", Duration.ofMillis(100), Duration.ofSeconds(30),
 *         () -> established(crds.get("foos.samplecontroller.k8s.io")));
 * }
 *
 * <p>Stateless; the methods are thread-safe, and block the calling thread.
 */
public final class Wait {

    private static final Logger LOG = LoggerFactory.getLogger(Wait.class);

    /** The longest back-off after transient failures (unless the server asks for longer). */
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    /** The longest {@code Retry-After} honoured. */
    private static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

    /**
     * What is waited for: true when it holds, false to check again after the interval. May throw: a
     * {@linkplain #isTransient transient} failure means "not yet", any other ends the wait.
     */
    @FunctionalInterface
    public interface Condition {

        /** @return whether the condition holds */
        boolean check();
    }

    private Wait() {}

    /**
     * Waits until {@code condition} holds.
     *
     * @param what what is waited for, for messages: {@code "CRD foos.example.com to be established"}
     * @param interval the pause between checks, and the first back-off after a transient failure
     * @param timeout how long to wait in all
     * @param condition the condition
     * @throws IllegalStateException when the condition does not hold within {@code timeout} (its cause the
     *     last transient failure, if any), or the thread is interrupted (the flag stays set)
     * @throws RuntimeException what the condition threw, when not transient
     */
    public static void until(String what, Duration interval, Duration timeout, Condition condition) {
        until(what, interval, timeout, Ticker.system(), condition);
    }

    /** {@link #until(String, Duration, Duration, Condition)} on {@code ticker}'s clock. */
    public static void until(String what, Duration interval, Duration timeout, Ticker ticker, Condition condition) {
        RuntimeException last = run(what, interval, timeout, ticker, condition);
        if (last != NONE) {
            throw new IllegalStateException(
                    "timed out after " + Durations.format(timeout) + " waiting for " + what
                            + (last == null ? "" : "; last error: " + oneLine(last)),
                    last);
        }
    }

    /**
     * As {@link #until(String, Duration, Duration, Condition)}, but answers false at the deadline instead of
     * throwing.
     *
     * @return true when the condition held within {@code timeout}
     */
    public static boolean poll(String what, Duration interval, Duration timeout, Condition condition) {
        return poll(what, interval, timeout, Ticker.system(), condition);
    }

    /** {@link #poll(String, Duration, Duration, Condition)} on {@code ticker}'s clock. */
    public static boolean poll(String what, Duration interval, Duration timeout, Ticker ticker, Condition condition) {
        return run(what, interval, timeout, ticker, condition) == NONE;
    }

    /**
     * Whether {@code failure} is one to retry: a {@link TransportException} (no HTTP answer: connection
     * refused, reset or cut, a timeout) unless the thread was interrupted, or an {@link ApiException} with
     * code 429 (TooManyRequests) or 5xx (InternalError, ServiceUnavailable, a server timeout…) — also as
     * the cause of another exception. Never when the thread is interrupted or the call was: then the
     * caller is being stopped.
     *
     * @param failure the failure
     * @return true when a later attempt may succeed
     */
    public static boolean isTransient(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return false;
        }
        Boolean verdict = null;
        for (Throwable t : Causes.chain(failure)) {
            if (t instanceof InterruptedException
                    || t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
                return false; // an interrupted call: the caller is being stopped
            }
            if (verdict == null && t instanceof ApiException api) {
                verdict = api.code() == 429 || api.code() >= 500 && api.code() <= 599;
            } else if (verdict == null && t instanceof TransportException) {
                verdict = true;
            }
        }
        return verdict != null && verdict;
    }

    /** Returned by {@link #run} when the condition held. */
    private static final RuntimeException NONE = new RuntimeException("the condition held");

    /** Runs the loop: {@link #NONE} when the condition held, else the last transient failure (null if none). */
    private static RuntimeException run(
            String what, Duration interval, Duration timeout, Ticker ticker, Condition condition) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(ticker, "ticker");
        if (!interval.isPositive()) {
            throw new IllegalArgumentException("interval must be positive, got " + Durations.format(interval));
        }
        long deadline = ticker.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        int failuresInARow = 0;
        while (true) {
            Duration pause = interval;
            try {
                if (condition.check()) {
                    return NONE;
                }
                failuresInARow = 0;
            } catch (RuntimeException e) {
                if (!isTransient(e)) {
                    throw e;
                }
                last = e;
                failuresInARow++;
                pause = backoff(interval, failuresInARow, e);
                LOG.debug(
                        "waiting for {}: transient failure {} in a row, retrying in {}: {}",
                        what,
                        failuresInARow,
                        Durations.format(pause),
                        oneLine(e));
            }
            long left = deadline - ticker.nanoTime();
            if (left <= 0) {
                return last;
            }
            try {
                ticker.sleep(Duration.ofNanos(Math.min(left, pause.toNanos())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /** interval × 2^(n−1), jittered up to +10 %, at most {@link #MAX_BACKOFF}; at least the server's Retry-After. */
    private static Duration backoff(Duration interval, int failuresInARow, RuntimeException failure) {
        long nanos = interval.toNanos() << Math.min(failuresInARow - 1, 20);
        nanos = Math.min(nanos, MAX_BACKOFF.toNanos());
        nanos += (long) (nanos * 0.1 * ThreadLocalRandom.current().nextDouble());
        if (failure instanceof ApiException api && api.retryAfter().isPresent()) {
            nanos = Math.max(nanos, Math.min(api.retryAfter().get().toNanos(), MAX_RETRY_AFTER.toNanos()));
        }
        return Duration.ofNanos(nanos);
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null || e.getMessage().isBlank()
                ? e.getClass().getSimpleName()
                : e.getMessage();
        String line = message.lines().findFirst().orElse(message);
        return e instanceof ApiException api && !api.reason().isEmpty() ? api.reason() + ": " + line : line;
    }
}
