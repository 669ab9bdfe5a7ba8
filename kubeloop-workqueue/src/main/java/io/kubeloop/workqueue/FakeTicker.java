package io.kubeloop.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Ticker} that moves only when a test calls {@link #step(Duration)}: delays and rate limits
 * become instant and deterministic to test.
 *
 * <p>Threads parked in {@link #parkUntil(long)} are woken when a step reaches their deadline; the
 * waiting loop of a {@link DelayingQueue} therefore reacts to steps exactly as it would to the
 * passage of real time. {@link #awaitParked(int, Duration)} lets a test wait until such a loop has
 * finished reacting (it parks again) before asserting that something did <em>not</em> happen.
 *
 * <p>Time starts at an arbitrary non-zero instant so that code relying on zero is caught.
 *
 * <p>Like {@link Ticker#system()}, {@link #parkUntil(long)} keeps the {@link LockSupport} contract:
 * a thread that holds an unpark permit, or is unparked while it registers, returns. That is why no
 * method here waits for a lock: waiting for one parks the thread and uses up its permit, and a queue
 * that unparked its waiting loop to shut it down would then wait until a step reached the loop's
 * deadline (see {@code FakeTickerTest}).
 *
 * <p><b>Thread safety:</b> safe for use by any number of threads and lock-free: the instant is an
 * atomic, the parked threads an immutable list replaced by compare-and-set. A step that happens
 * while a thread registers either sees the registration or is seen by the thread's check of the
 * instant after registering, so no step is missed.
 */
public final class FakeTicker implements Ticker {

    private static final long START = 1_000_000_000_000L;

    /** A thread parked in {@link #parkUntil(long)}; compared by identity. */
    private record Waiter(Thread thread, long deadline) {
    }

    /** Current instant; only increases. */
    private final AtomicLong now = new AtomicLong(START);
    /** Parked threads whose deadline was not reached when last looked at; an immutable list. */
    private final AtomicReference<List<Waiter>> waiters = new AtomicReference<>(List.of());

    /** Creates a ticker at an arbitrary fixed instant. */
    public FakeTicker() {
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /**
     * Moves time forward (saturating at {@link Long#MAX_VALUE}) and wakes every parked thread whose
     * deadline is reached.
     *
     * @param duration how far to move; must not be negative
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public void step(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("FakeTicker cannot step backwards: " + duration);
        }
        long nanos = Durations.toNanosSaturated(duration);
        long reached = now.accumulateAndGet(nanos, Durations::saturatedAdd);
        for (;;) {
            List<Waiter> current = waiters.get();
            List<Waiter> due = new ArrayList<>();
            List<Waiter> rest = new ArrayList<>();
            for (Waiter w : current) {
                (w.deadline() <= reached ? due : rest).add(w);
            }
            if (due.isEmpty()) {
                return;
            }
            if (waiters.compareAndSet(current, List.copyOf(rest))) {
                due.forEach(w -> LockSupport.unpark(w.thread()));
                return;
            }
        }
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        if (deadlineNanos <= now.get()) {
            return;
        }
        Waiter self = new Waiter(Thread.currentThread(), deadlineNanos);
        update(self, true);
        if (deadlineNanos <= now.get()) { // a step came between the first check and the registration
            update(self, false);
            return;
        }
        LockSupport.park(this);
        update(self, false);
    }

    /** Adds or removes {@code waiter} (by identity), retrying the compare-and-set until it holds. */
    private void update(Waiter waiter, boolean add) {
        for (;;) {
            List<Waiter> current = waiters.get();
            List<Waiter> next = new ArrayList<>(current.size() + 1);
            for (Waiter w : current) {
                if (w != waiter) {
                    next.add(w);
                }
            }
            if (add) {
                next.add(waiter);
            } else if (next.size() == current.size()) {
                return; // already removed by the step that woke it
            }
            if (waiters.compareAndSet(current, List.copyOf(next))) {
                return;
            }
        }
    }

    /**
     * Returns how many threads are parked in {@link #parkUntil(long)} with a deadline not yet
     * reached.
     *
     * @return the number of parked threads
     */
    public int parkedCount() {
        return waiters.get().size();
    }

    /**
     * Waits (in real time, polling every 0.1 ms) until at least {@code count} threads are parked on
     * this ticker. After a {@link #step(Duration)} woke a queue's waiting loop, this returns once the
     * loop has done its work and parked again.
     *
     * @param count how many parked threads to wait for
     * @param timeout the longest real time to wait
     * @return true if {@code count} threads are parked, false on timeout or interruption (the
     *     interrupt flag is then set again)
     */
    public boolean awaitParked(int count, Duration timeout) {
        long deadline = Durations.saturatedAdd(System.nanoTime(), Durations.toNanosSaturated(timeout));
        while (parkedCount() < count) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(0, 100_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "FakeTicker[" + TimeUnit.NANOSECONDS.toMillis(now.get() - START) + " ms after start]";
    }
}
