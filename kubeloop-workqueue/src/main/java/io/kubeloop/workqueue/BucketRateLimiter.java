package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An overall token bucket, as Go's {@code rate.Limiter} used through {@code Reserve().Delay()}:
 * starts full with {@code burst} tokens, refills at {@code qps} tokens per second up to
 * {@code burst}, and every {@link #when} takes one token — the count may go negative, and the
 * delay is the time until the bucket is back at zero. Items are not told apart, so
 * {@link #numRequeues} is always 0 and {@link #forget} does nothing.
 *
 * <p>Kept as one number, the bucket's theoretical arrival time ({@code tat}, as in the generic cell
 * rate algorithm): the instant at which the bucket would be full again. Tokens at {@code now} are
 * {@code burst - (tat - now) / interval} when {@code tat} is after {@code now}, else {@code burst}; a
 * request moves {@code tat} one interval past {@code max(tat, now)} and waits for whatever of that
 * lies beyond {@code burst} intervals. This is exactly Go's reservation arithmetic, in whole
 * nanoseconds (the interval is {@code 1e9 / qps} rounded, at least 1 ns).
 *
 * <p><b>Thread safety:</b> thread-safe and lock-free: a request is one fetch-and-add of
 * {@code tat} while the bucket is in debt ({@code tat} after now, the state of a busy queue:
 * {@code tat} only grows, so it stays after now and the new value is exactly {@code tat +
 * interval}), otherwise a compare-and-set loop. A fetch-and-add cannot fail, so threads that
 * request at once do not retry each other's updates.
 *
 * @param <T> the item type
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/util/workqueue/default_rate_limiters.go">client-go BucketRateLimiter</a>
 */
final class BucketRateLimiter<T> implements NanosRateLimiter<T> {

    private final double qps;
    private final int burst;
    private final Ticker ticker;
    /** Nanoseconds per token, at least 1; 0 when qps is infinite (no limit at all). */
    private final long interval;
    /** {@code burst × interval}, saturated: how far {@code tat} may run ahead of now before requests wait. */
    private final long tolerance;
    /**
     * Below this {@code tat} a fetch-and-add cannot overflow: it leaves 2^62 ns (146 years) of
     * headroom for concurrent requests. Above it (a ticker near the end of its range) every
     * request takes the saturating compare-and-set path.
     */
    private static final long FETCH_ADD_LIMIT = Long.MAX_VALUE - (1L << 62);
    /** Theoretical arrival time: the ticker instant at which the bucket is full again. */
    private final AtomicLong tat;

    BucketRateLimiter(double qps, int burst, Ticker ticker) {
        if (!(qps > 0)) {
            throw new IllegalArgumentException("bucket qps must be positive: " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("bucket burst must be at least 1: " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.interval = qps == Double.POSITIVE_INFINITY ? 0 : Math.max(1, Math.round(1e9 / qps));
        this.tolerance = interval > Long.MAX_VALUE / burst ? Long.MAX_VALUE : interval * burst;
        this.tat = new AtomicLong(ticker.nanoTime()); // starts full
    }

    @Override
    public long whenNanos(T item, Ticker clock, long clockNow) {
        if (interval == 0) {
            return 0;
        }
        long now = clock == ticker ? clockNow : ticker.nanoTime();
        long seen = tat.get();
        if (seen - now > 0 && seen < FETCH_ADD_LIMIT) {
            // In debt (the usual state of a busy queue): max(tat, now) is tat, and stays so because
            // tat only grows, so the request is a plain fetch-and-add, which cannot fail and retry.
            long ahead = tat.getAndAdd(interval) + interval - now;
            long wait = ahead - tolerance;
            return wait > 0 ? wait : 0;
        }
        for (; ; ) {
            long t = tat.get();
            long next = Durations.saturatedAdd(t - now > 0 ? t : now, interval);
            if (tat.compareAndSet(t, next)) {
                long ahead = next - now; // at least one interval; negative only if it overflowed
                long wait = (ahead < 0 ? Long.MAX_VALUE : ahead) - tolerance;
                return wait > 0 ? wait : 0;
            }
        }
    }

    @Override
    public void forget(T item) {}

    @Override
    public int numRequeues(T item) {
        return 0;
    }

    @Override
    public String toString() {
        return "BucketRateLimiter[qps=" + qps + ", burst=" + burst + "]";
    }
}
