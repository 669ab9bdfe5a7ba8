package io.kubeloop.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Joins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link PriorityQueue}: a sorted set of queued entries (at most one per item), the set of items
 * in flight, one lock, and a timer thread that wakes waiting workers when a delayed entry's time has
 * come (it parks on the {@link Ticker}, so a fake ticker drives it in tests).
 *
 * <p>Invariants (under {@link #lock}): {@link #queued} and {@link #order} hold the same entries; an
 * entry's ordering fields change only while it is out of {@link #order}; an item in
 * {@link #inFlight} is never handed out; nothing is handed out after {@link #shuttingDown}.
 *
 * <p><b>Thread safety:</b> all public methods are thread-safe.
 */
final class DefaultPriorityQueue<T> implements PriorityQueue<T> {

    /** The ready time of an entry added without a delay: before every real instant. */
    private static final long NO_DELAY = Long.MIN_VALUE;

    /** One queued item. */
    private static final class Entry<T> {
        final T item;
        /** Ticker instant it is ready at, or {@link #NO_DELAY}. */
        long readyAt;

        int priority;
        /** Order of first insertion: FIFO among equals. */
        final long sequence;
        /** Carries metric timestamps; whether the add was counted yet. */
        final QueueEntry<T> metricsEntry;

        boolean counted;

        Entry(T item, long readyAt, int priority, long sequence) {
            this.item = item;
            this.readyAt = readyAt;
            this.priority = priority;
            this.sequence = sequence;
            this.metricsEntry = new QueueEntry<>(item);
        }
    }

    /** controller-runtime's order: undelayed first, then by ready time, then priority, then FIFO. */
    private static final Comparator<Entry<?>> ORDER = Comparator.<Entry<?>>comparingLong(e -> e.readyAt)
            .thenComparing(Comparator.<Entry<?>>comparingInt(e -> e.priority).reversed())
            .thenComparingLong(e -> e.sequence);

    private final RateLimiter<T> rateLimiter;
    private final Ticker ticker;
    private final QueueMetrics metrics;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when an entry may have become available to a waiting worker. */
    private final Condition changed = lock.newCondition();

    private final Map<T, Entry<T>> queued = new HashMap<>();
    private final TreeSet<Entry<T>> order = new TreeSet<>(ORDER);
    /** Items handed out and not done, with their metrics carriers. */
    private final Map<T, QueueEntry<T>> inFlight = new HashMap<>();

    private long nextSequence;
    private boolean shuttingDown;
    /**
     * The ticker instant the timer thread parks until ({@link Long#MAX_VALUE}: no delayed entry);
     * an add wakes it only for an earlier ready time. Guarded by {@link #lock}.
     */
    @GuardedBy("lock")
    private long timerDeadline = Long.MAX_VALUE;

    private final Thread timer;

    DefaultPriorityQueue(RateLimiter<T> rateLimiter, WorkQueueOptions config) {
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
        this.ticker = config.ticker();
        this.metrics = config.newQueueMetrics(() -> inFlightSnapshot().iterator());
        this.timer = config.threadFactory().newThread(this::timerLoop);
        if (timer == null) {
            throw new IllegalStateException("the work queue thread factory returned no thread");
        }
        timer.start();
    }

    private List<QueueEntry<?>> inFlightSnapshot() {
        lock.lock();
        try {
            List<QueueEntry<?>> copy = new ArrayList<>(inFlight.size());
            for (QueueEntry<T> e : inFlight.values()) {
                QueueEntry<T> c = new QueueEntry<>(e.item);
                c.setState(QueueEntry.PROCESSING);
                c.startedAtNanos = e.startedAtNanos;
                copy.add(c);
            }
            return copy;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void add(T item) {
        addWithOptions(item, AddOptions.defaults());
    }

    @Override
    public void addAfter(T item, Duration delay) {
        addWithOptions(item, AddOptions.defaults().withAfter(delay));
    }

    @Override
    public void addRateLimited(T item) {
        addWithOptions(item, AddOptions.defaults().withRateLimit());
    }

    @Override
    public void addWithOptions(T item, AddOptions options) {
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(options, "options");
        long afterNanos = Math.max(0, Durations.toNanosSaturated(options.after()));
        if (options.rateLimited()) {
            long limited = Math.max(0, Durations.toNanosSaturated(rateLimiter.when(item)));
            if (afterNanos == 0 || limited < afterNanos) {
                afterNanos = limited;
            }
        }
        boolean wakeTimer = false;
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            long readyAt = NO_DELAY;
            if (afterNanos > 0) {
                readyAt = Durations.saturatedAdd(ticker.nanoTime(), afterNanos);
                metrics.retried();
                if (timerDeadline == Long.MAX_VALUE || readyAt - timerDeadline < 0) {
                    timerDeadline = readyAt; // the timer parks too long: wake it (once per earlier time)
                    wakeTimer = true;
                }
            }
            Entry<T> e = queued.get(item);
            if (e == null) {
                e = new Entry<>(item, readyAt, options.priority(), nextSequence++);
                queued.put(item, e);
                order.add(e);
                if (readyAt == NO_DELAY) {
                    count(e);
                }
            } else {
                order.remove(e);
                e.priority = Math.max(e.priority, options.priority());
                if (e.readyAt != NO_DELAY && (readyAt == NO_DELAY || readyAt < e.readyAt)) {
                    e.readyAt = readyAt;
                    if (readyAt == NO_DELAY) {
                        count(e);
                    }
                }
                order.add(e);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (wakeTimer) {
            LockSupport.unpark(timer);
        }
    }

    /** Counts the entry's add once, when it becomes ready to hand out. Under the lock. */
    private void count(Entry<T> e) {
        if (!e.counted) {
            e.counted = true;
            metrics.added(e.metricsEntry);
        }
    }

    @Override
    public Optional<T> get() {
        return getWithPriority().map(Prioritized::item);
    }

    @Override
    public Optional<Prioritized<T>> getWithPriority() {
        lock.lock();
        try {
            for (; ; ) {
                if (shuttingDown) {
                    return Optional.empty();
                }
                Entry<T> next = firstAvailable(ticker.nanoTime());
                if (next != null) {
                    order.remove(next);
                    queued.remove(next.item);
                    count(next);
                    metrics.handedOut(next.metricsEntry);
                    inFlight.put(next.item, next.metricsEntry);
                    return Optional.of(new Prioritized<>(next.item, next.priority));
                }
                changed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The first entry in order that is ready and not in flight, or null. Under the lock. */
    private Entry<T> firstAvailable(long now) {
        for (Entry<T> e : order) {
            if (e.readyAt != NO_DELAY && e.readyAt - now > 0) {
                return null; // delayed entries are sorted by ready time: none later is ready either
            }
            if (!inFlight.containsKey(e.item)) {
                return e;
            }
        }
        return null;
    }

    /** Wakes waiting workers whenever the next delayed entry's time comes. */
    private void timerLoop() {
        for (; ; ) {
            long deadline;
            lock.lock();
            try {
                if (shuttingDown) {
                    return;
                }
                long now = ticker.nanoTime();
                deadline = Long.MAX_VALUE;
                boolean someReady = false;
                for (Entry<T> e : order) {
                    if (e.readyAt == NO_DELAY) {
                        continue;
                    }
                    if (e.readyAt - now > 0) {
                        deadline = e.readyAt;
                        break;
                    }
                    someReady = true;
                }
                if (someReady) {
                    changed.signalAll();
                }
                timerDeadline = deadline;
            } finally {
                lock.unlock();
            }
            ticker.parkUntil(deadline);
        }
    }

    @Override
    public void done(T item) {
        lock.lock();
        try {
            QueueEntry<T> e = inFlight.remove(item);
            if (e != null) {
                metrics.done(e);
                changed.signalAll(); // a queued entry of this item may be handed out now
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    @Override
    public int len() {
        lock.lock();
        try {
            long now = ticker.nanoTime();
            int ready = 0;
            for (Entry<T> e : order) {
                if (e.readyAt != NO_DELAY && e.readyAt - now > 0) {
                    break;
                }
                ready++;
            }
            return ready;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            shuttingDown = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(timer);
    }

    @Override
    public void shutDownWithDrain() {
        shutDown();
    }

    @Override
    public boolean isShuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        shutDown();
        Joins.joinUninterruptibly(timer);
    }
}
