package io.kubeloop.time.testing;

import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A {@link Ticker} that moves only when a test says so (client-go's {@code testing.FakeClock}).
 * Give the same instance to every component under test — client, reflector, informer, work queue,
 * controller, leader elector — and step it: back-offs, resyncs, queue delays, rate limits, cache-sync
 * timeouts and lease expiries then happen at once, in the order the test chooses, and a test never
 * waits for real time to pass.
 *
 * {@snippet :
 * FakeTicker ticker = new FakeTicker();
 * RateLimitingQueue<String> queue = RateLimitingQueue.create(RateLimiter.defaultControllerRateLimiter(ticker),
 *         WorkQueueOptions.builder().name("test").ticker(ticker).build());
 * queue.addAfter("a", Duration.ofSeconds(30));
 * ticker.awaitWaiters(1);              // the queue's waiting loop is parked on the ticker
 * ticker.step(Duration.ofSeconds(30)); // wakes it: "a" is due
 * assertThat(queue.get()).contains("a");
 * }
 *
 * <p><b>Time.</b> {@link #nanoTime()} starts at an arbitrary non-zero value (so code relying on
 * zero is caught) and {@link #instant()} at {@code 2024-01-01T00:00:00Z} unless given; both move
 * together on {@link #step(Duration)}. {@link #setTime(Instant)} sets the wall clock: forward it
 * steps both clocks, backward it moves only the wall clock (as when a real clock is corrected),
 * since the monotonic clock never decreases.
 *
 * <p><b>Waiting.</b> A thread in {@link #parkUntil(long)} or {@link #sleep(Duration)} is a
 * <em>waiter</em> until a step reaches its deadline, it is unparked or interrupted, or (parkUntil
 * only) spuriously. A step wakes every waiter whose deadline it reached. {@link #awaitWaiters(int)}
 * lets a test wait until the threads it started are parked on the ticker — after a step, until they
 * have reacted and parked again — before it asserts that something did <em>not</em> happen.
 * {@link #parkUntil(long)} keeps the {@link java.util.concurrent.locks.LockSupport} contract of
 * {@link Ticker}: an unpark permit given before the call makes it return; that is why no method here
 * waits for a lock (waiting for one parks the thread and uses up its permit).
 *
 * <p><b>Auto-advancing.</b> A ticker made by {@link #autoAdvancing()} does not block in
 * {@link #sleep(Duration)}: a sleep steps the clock by its duration and returns (client-go's
 * {@code FakeClock.Sleep}), for code that sleeps on the test's own thread (a client's retries and
 * rate limiter). {@link #parkUntil(long)} waits for steps as usual.
 *
 * <p>Every {@link #sleep(Duration)} call is recorded ({@link #sleeps()}), so a test can check the
 * back-off a component chose.
 *
 * <p><b>Thread safety:</b> safe for use by any number of threads and lock-free: the time is an
 * atomic pair, the waiters an immutable list replaced by compare-and-set. A step that happens while
 * a thread registers either sees the registration or is seen by the thread's check of the time
 * after registering, so no step is missed.
 */
public final class FakeTicker implements Ticker {

    private static final long START = 1_000_000_000_000L;
    private static final Instant DEFAULT_WALL_START = Instant.parse("2024-01-01T00:00:00Z");
    private static final Duration DEFAULT_AWAIT = Duration.ofSeconds(30);

    /** The two clocks, replaced together. */
    private record Time(long nanos, Instant wall) {}

    /** A thread parked in {@link #parkUntil(long)}; compared by identity. */
    private record Waiter(Thread thread, long deadline) {}

    private final AtomicReference<Time> time;
    /** Parked threads whose deadline was not reached when last looked at; an immutable list. */
    private final AtomicReference<List<Waiter>> waiters = new AtomicReference<>(List.of());
    /** Threads in one of the await methods, unparked on every change they may wait for. */
    private final Set<Thread> watchers = ConcurrentHashMap.newKeySet();

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final boolean autoAdvance;

    /** Creates a ticker whose wall clock reads {@code 2024-01-01T00:00:00Z}. */
    public FakeTicker() {
        this(DEFAULT_WALL_START, false);
    }

    /**
     * Creates a ticker whose wall clock reads {@code wallStart}.
     *
     * @param wallStart the first reading of {@link #instant()}
     */
    public FakeTicker(Instant wallStart) {
        this(wallStart, false);
    }

    private FakeTicker(Instant wallStart, boolean autoAdvance) {
        this.time = new AtomicReference<>(new Time(START, Objects.requireNonNull(wallStart, "wallStart")));
        this.autoAdvance = autoAdvance;
    }

    /**
     * Creates a ticker whose {@link #sleep(Duration)} steps the clock instead of waiting (client-go's
     * {@code FakeClock.Sleep}); its wall clock reads {@code 2024-01-01T00:00:00Z}.
     *
     * @return a new auto-advancing ticker
     */
    public static FakeTicker autoAdvancing() {
        return new FakeTicker(DEFAULT_WALL_START, true);
    }

    @Override
    public long nanoTime() {
        return time.get().nanos();
    }

    @Override
    public Instant instant() {
        return time.get().wall();
    }

    /**
     * Moves both clocks forward (the monotonic one saturating at {@link Long#MAX_VALUE}) and wakes
     * every waiter whose deadline is reached.
     *
     * @param duration how far to move; must not be negative
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public void step(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("FakeTicker cannot step backwards: " + duration);
        }
        long nanos = Ticker.deadline(0, duration) == Long.MAX_VALUE ? Long.MAX_VALUE : duration.toNanos();
        Time reached = time.updateAndGet(t -> {
            long next = saturatedAdd(t.nanos(), nanos);
            return new Time(next, plusSaturated(t.wall(), Duration.ofNanos(next - t.nanos())));
        });
        wakeDue(reached.nanos());
    }

    /**
     * Sets the wall clock to {@code instant}. Later than now, both clocks step forward by the
     * difference (waking due waiters); earlier, only the wall clock moves back.
     *
     * @param instant the new reading of {@link #instant()}
     */
    public void setTime(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        Time t = time.get();
        if (instant.isAfter(t.wall())) {
            step(Duration.between(t.wall(), instant));
            return;
        }
        time.updateAndGet(current -> new Time(current.nanos(), instant));
    }

    @Override
    public void parkUntil(long deadlineNanos) {
        if (deadlineNanos - nanoTime() <= 0 && deadlineNanos != Long.MAX_VALUE) {
            return;
        }
        Waiter self = new Waiter(Thread.currentThread(), deadlineNanos);
        update(self, true);
        if (deadlineNanos != Long.MAX_VALUE && deadlineNanos - nanoTime() <= 0) {
            // a step came between the first check and the registration
            update(self, false);
            return;
        }
        LockSupport.park(this);
        update(self, false);
    }

    /**
     * Records the call, then waits until a step has moved the clock by {@code duration} — or, for a
     * ticker made by {@link #autoAdvancing()}, steps the clock by it and returns.
     *
     * @param duration how long to wait
     * @throws InterruptedException when the thread is interrupted before or while waiting
     */
    @Override
    public void sleep(Duration duration) throws InterruptedException {
        sleeps.add(duration);
        notifyWatchers();
        if (!autoAdvance) {
            Ticker.super.sleep(duration);
            return;
        }
        if (duration.isPositive()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            step(duration);
        }
    }

    /**
     * Returns how many threads are parked on this ticker (in {@link #parkUntil(long)} or
     * {@link #sleep(Duration)}) with a deadline not yet reached.
     *
     * @return the number of waiters
     */
    public int waiters() {
        return waiters.get().size();
    }

    /**
     * Returns whether any thread is parked on this ticker (client-go's {@code HasWaiters}).
     *
     * @return true if {@link #waiters()} is positive
     */
    public boolean hasWaiters() {
        return waiters() > 0;
    }

    /**
     * Returns the deadlines of the threads parked on this ticker, earliest first, as durations from
     * now ({@link Long#MAX_VALUE} nanoseconds for a thread waiting for an unpark only).
     *
     * @return the waiters' remaining times
     */
    public List<Duration> waiterDeadlines() {
        long now = nanoTime();
        return waiters.get().stream()
                .mapToLong(Waiter::deadline)
                .sorted()
                .mapToObj(d -> Duration.ofNanos(d == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, d - now)))
                .toList();
    }

    /**
     * Waits until at least {@code count} threads are parked on this ticker. After a
     * {@link #step(Duration)} woke a component's thread, this returns once the thread has done its
     * work and parked again. Waits without polling, in real time, for at most 30 seconds.
     *
     * @param count how many waiters to wait for
     * @throws AssertionError if there are fewer after 30 seconds, or the thread is interrupted
     *     (its flag is then set again)
     */
    public void awaitWaiters(int count) {
        if (!awaitWaiters(count, DEFAULT_AWAIT)) {
            throw new AssertionError("expected " + count + " thread(s) parked on " + this + ", found " + waiters());
        }
    }

    /**
     * Waits until at least {@code count} threads are parked on this ticker, for at most
     * {@code timeout} of real time, without polling.
     *
     * @param count how many waiters to wait for
     * @param timeout the longest real time to wait
     * @return true if {@code count} threads are parked; false on timeout or interruption (the
     *     interrupt flag is then set again)
     */
    public boolean awaitWaiters(int count, Duration timeout) {
        return await(() -> waiters() >= count, timeout);
    }

    /**
     * Returns the durations passed to {@link #sleep(Duration)}, in call order.
     *
     * @return a snapshot of the recorded sleeps
     */
    public List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }

    /**
     * Waits until {@link #sleep(Duration)} has been called at least {@code count} times in all,
     * without polling, for at most 30 seconds of real time.
     *
     * @param count how many calls to wait for
     * @throws AssertionError if there are fewer after 30 seconds, or the thread is interrupted
     */
    public void awaitSleeps(int count) {
        if (!awaitSleeps(count, DEFAULT_AWAIT)) {
            throw new AssertionError("expected " + count + " sleep(s) on " + this + ", found " + sleeps());
        }
    }

    /**
     * Waits until {@link #sleep(Duration)} has been called at least {@code count} times in all,
     * for at most {@code timeout} of real time, without polling.
     *
     * @param count how many calls to wait for
     * @param timeout the longest real time to wait
     * @return true if there were that many calls; false on timeout or interruption (the interrupt
     *     flag is then set again)
     */
    public boolean awaitSleeps(int count, Duration timeout) {
        return await(() -> sleeps.size() >= count, timeout);
    }

    /** Waits in real time for {@code condition}, woken by every change of the waiters or sleeps. */
    private boolean await(BooleanSupplier condition, Duration timeout) {
        Thread self = Thread.currentThread();
        long deadline = System.nanoTime() + timeout.toNanos();
        watchers.add(self);
        try {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                if (Thread.interrupted()) {
                    self.interrupt();
                    return false;
                }
                LockSupport.parkNanos(this, left);
            }
            return true;
        } finally {
            watchers.remove(self);
        }
    }

    private void notifyWatchers() {
        for (Thread w : watchers) {
            LockSupport.unpark(w);
        }
    }

    /** Unparks every waiter whose deadline is at or before {@code reached}. */
    private void wakeDue(long reached) {
        for (; ; ) {
            List<Waiter> current = waiters.get();
            List<Waiter> due = new ArrayList<>();
            List<Waiter> rest = new ArrayList<>();
            for (Waiter w : current) {
                (w.deadline() != Long.MAX_VALUE && w.deadline() - reached <= 0 ? due : rest).add(w);
            }
            if (due.isEmpty()) {
                return;
            }
            if (waiters.compareAndSet(current, List.copyOf(rest))) {
                due.forEach(w -> LockSupport.unpark(w.thread()));
                notifyWatchers();
                return;
            }
        }
    }

    /** Adds or removes {@code waiter} (by identity), retrying the compare-and-set until it holds. */
    private void update(Waiter waiter, boolean add) {
        for (; ; ) {
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
                notifyWatchers();
                return;
            }
        }
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return r < 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return r;
    }

    private static Instant plusSaturated(Instant wall, Duration d) {
        return Instant.MAX.minus(d).isBefore(wall) ? Instant.MAX : wall.plus(d);
    }

    @Override
    public String toString() {
        Time t = time.get();
        return "FakeTicker[" + t.wall() + ", " + Duration.ofNanos(t.nanos() - START) + " after start]";
    }
}
