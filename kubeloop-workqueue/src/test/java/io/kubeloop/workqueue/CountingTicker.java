package io.kubeloop.workqueue;

import io.kubeloop.time.Ticker;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FakeTicker} wrapper that counts how often the thread that created it reads it (the test's
 * thread; a delaying queue's waiting loop reads the clock too, on its own schedule), for tests of
 * how often the calls under test read the clock.
 */
final class CountingTicker implements Ticker {

    final FakeTicker time = new FakeTicker();
    final AtomicInteger reads = new AtomicInteger();
    private final Thread counted = Thread.currentThread();

    @Override
    public long nanoTime() {
        if (Thread.currentThread() == counted) {
            reads.incrementAndGet();
        }
        return time.nanoTime();
    }

    @Override
    public Instant instant() {
        return time.instant();
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        time.parkUntil(deadlineNanos);
    }
}
