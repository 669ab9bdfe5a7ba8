package io.kubeloop.client.http;

import java.time.Duration;

/**
 * The time source and sleeper of the transport's rate limiter and retries. Tests inject a fake that
 * advances its clock when asked to sleep, so limits and back-off are checked without real time.
 *
 * <p>Implementations are thread-safe.
 */
public interface Ticker {

    /** A monotonic reading in nanoseconds, like {@link System#nanoTime()}. */
    long nanoTime();

    /**
     * Blocks the calling thread for {@code duration} (returns at once when it is zero or negative).
     * This is the one checked exception in kubeloop's public surface: a blocked call must stay
     * interruptible, and callers turn it into their own unchecked error after restoring the flag.
     *
     * @throws InterruptedException when the thread is interrupted while sleeping
     */
    void sleep(Duration duration) throws InterruptedException;

    /** Real time: {@link System#nanoTime()} and {@link Thread#sleep(Duration)}. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}

/** The real-time {@link Ticker}; stateless. */
enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (duration.isPositive()) {
            Thread.sleep(duration);
        }
    }
}
