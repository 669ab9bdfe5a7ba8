package io.kubeloop.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/** The real {@link Ticker}; stateless. */
enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant instant() {
        return Instant.now();
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        if (deadlineNanos == Long.MAX_VALUE) {
            LockSupport.park(this);
            return;
        }
        long wait = deadlineNanos - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(this, wait);
        }
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (duration.isPositive()) {
            Thread.sleep(duration);
        }
    }

    @Override
    public String toString() {
        return "Ticker.system()";
    }
}
