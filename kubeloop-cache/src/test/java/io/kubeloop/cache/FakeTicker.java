package io.kubeloop.cache;

import io.kubeloop.client.http.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A fake clock: time moves only by {@link #advance}; sleepers wait for it. Records every sleep. */
final class FakeTicker implements Ticker {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long now = 1_000_000_000L;
    private int sleepers;
    private final List<Duration> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        lock.lock();
        try {
            sleeps.add(duration);
            long deadline = now + duration.toNanos();
            sleepers++;
            changed.signalAll();
            try {
                while (now < deadline) {
                    changed.await();
                }
            } finally {
                sleepers--;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    void advance(Duration d) {
        lock.lock();
        try {
            now += d.toNanos();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits (really, up to 10 s) until at least {@code n} threads sleep on this ticker. */
    void awaitSleepers(int n) {
        awaitSleeps(-1, n);
    }

    /** Waits until {@code count} sleeps were requested in total and {@code n} threads sleep. */
    void awaitSleeps(int count, int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        lock.lock();
        try {
            while (sleepers < n || sleeps.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out waiting for " + n + " sleepers / " + count + " sleeps; have "
                            + sleepers + " / " + sleeps);
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            lock.unlock();
        }
    }

    List<Duration> sleeps() {
        lock.lock();
        try {
            return List.copyOf(sleeps);
        } finally {
            lock.unlock();
        }
    }

    int sleepers() {
        lock.lock();
        try {
            return sleepers;
        } finally {
            lock.unlock();
        }
    }
}
