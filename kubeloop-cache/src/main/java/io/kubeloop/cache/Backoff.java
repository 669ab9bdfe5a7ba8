package io.kubeloop.cache;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The reflector's back-off between list-and-watch cycles, as client-go 1.36+ computes it
 * (apimachinery {@code Backoff.DelayWithReset}): 800 ms doubling to a 30 s cap, each wait jittered
 * to {@code d + rand[0,1)·d}, and the ramp restarted at 800 ms whenever more than 2 minutes have
 * passed since it last restarted — so steady failure waits 0.8–1.6 s, 1.6–3.2 s, … 30–60 s, and
 * begins again about every 2 minutes.
 *
 * <p>Not thread-safe: owned by the reflector's thread.
 */
final class Backoff {

    static final Duration INITIAL = Duration.ofMillis(800);
    static final Duration CAP = Duration.ofSeconds(30);
    static final Duration RESET_INTERVAL = Duration.ofMinutes(2);
    static final double FACTOR = 2.0;
    static final double JITTER = 1.0;

    private final Ticker ticker;
    private final RandomGenerator random;
    private long lastStart;
    private long durationNanos = INITIAL.toNanos();

    Backoff(Ticker ticker, RandomGenerator random) {
        this.ticker = ticker;
        this.random = random;
        this.lastStart = ticker.nanoTime();
    }

    /** The next wait. */
    Duration next() {
        long now = ticker.nanoTime();
        if (now - lastStart > RESET_INTERVAL.toNanos()) {
            durationNanos = INITIAL.toNanos();
            lastStart = now;
        }
        long d = durationNanos;
        durationNanos = Math.min((long) (durationNanos * FACTOR), CAP.toNanos());
        return Duration.ofNanos(d + (long) (random.nextDouble() * JITTER * d));
    }

    /**
     * The next wait, or the {@code Retry-After} the server sent with {@code failure} when that is longer (at
     * most {@link Reflector#MAX_RETRY_AFTER}): the client's own retries honoured it until they ran out, and
     * the reflector's next request honours it too.
     */
    Duration nextAfter(Throwable failure) {
        Duration wait = next();
        if (failure instanceof ApiException api && api.retryAfter().isPresent()) {
            Duration asked = api.retryAfter().get();
            if (asked.compareTo(Reflector.MAX_RETRY_AFTER) > 0) {
                asked = Reflector.MAX_RETRY_AFTER;
            }
            if (asked.compareTo(wait) > 0) {
                return asked;
            }
        }
        return wait;
    }
}
