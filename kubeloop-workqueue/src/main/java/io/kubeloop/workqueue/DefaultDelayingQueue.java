package io.kubeloop.workqueue;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Joins;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link DelayingQueue} implementation: a {@link DefaultWorkQueue} plus one waiting-loop
 * thread that moves items from a {@link DelayHeap} into it when their time comes.
 *
 * <p>{@code addAfter} inserts into the heap directly under {@link #lock} (client-go hands entries
 * to its loop through a channel of 1000) and unparks the loop only when the new entry became the
 * earliest. The loop adds every due item, then parks on the {@link Ticker} until the earliest ready
 * time, at most {@link #HEARTBEAT} (client-go's 10 s insurance), or until unparked.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe; the heap is guarded by {@link #lock} (only
 * {@link DelayHeap#find}, the fast path of {@link #addAfterNanos}, reads it without), which
 * is never held while parking or while calling user code (there is none).
 *
 * @param <T> the item type
 */
final class DefaultDelayingQueue<T> implements DelayingQueue<T> {

    /** Longest park of the waiting loop, as client-go's maxWait. */
    static final long HEARTBEAT = TimeUnit.SECONDS.toNanos(10);

    private final DefaultWorkQueue<T> queue;
    private final Ticker ticker;
    private final QueueMetrics metrics;
    /** Guards {@link #waiting}. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Items waiting for their time; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final DelayHeap<T> waiting = new DelayHeap<>();
    /** Set once by {@link #shutDown()}; the loop exits when it sees it. */
    private volatile boolean stopped;

    private final Thread loop;

    DefaultDelayingQueue(DefaultWorkQueue<T> queue, WorkQueueOptions config) {
        this.queue = queue;
        this.ticker = config.ticker();
        this.metrics = queue.metrics();
        this.loop = config.threadFactory().newThread(this::waitingLoop);
        if (loop == null) {
            throw new IllegalStateException("the work queue thread factory returned no thread");
        }
        loop.start();
    }

    @Override
    public void addAfter(T item, Duration delay) {
        Objects.requireNonNull(delay, "delay");
        addAfterNanos(item, Durations.toNanosSaturated(delay));
    }

    /**
     * {@link #addAfter} in nanoseconds (what the rate-limited path calls, without a {@code Duration}).
     * An item already waiting for an earlier or equal time is left as it is without taking the lock:
     * that read linearizes the call before the loop moves the item, and the earliest time wins.
     */
    void addAfterNanos(T item, long delayNanos) {
        if (!addedAtOnce(item, delayNanos)) {
            waitUntil(item, Durations.saturatedAdd(ticker.nanoTime(), delayNanos));
        }
    }

    /**
     * {@link #addAfterNanos(Object, long)} for a caller that has just read this queue's
     * {@link #ticker()} ({@code now}): the ready time is {@code now + delayNanos}, with no second
     * clock read. The rate-limited add reads the clock once for the limiter and the queue.
     */
    void addAfterNanos(T item, long delayNanos, long now) {
        if (!addedAtOnce(item, delayNanos)) {
            waitUntil(item, Durations.saturatedAdd(now, delayNanos));
        }
    }

    /** The clock ready times are measured on. */
    Ticker ticker() {
        return ticker;
    }

    /** Counts the retry; true when nothing is left to do (shutting down, or added with no delay). */
    private boolean addedAtOnce(T item, long delayNanos) {
        Objects.requireNonNull(item, "work queue item must not be null");
        if (queue.isShuttingDown()) {
            return true;
        }
        metrics.retried();
        if (delayNanos <= 0) {
            queue.add(item);
            return true;
        }
        return false;
    }

    private void waitUntil(T item, long readyAt) {
        DelayHeap.Node<T> waitingNode = findWithoutLock(item);
        if (waitingNode != null && waitingNode.readyAt - readyAt <= 0) {
            return;
        }
        boolean head;
        lock.lock();
        try {
            head = waiting.offer(item, readyAt);
        } finally {
            lock.unlock();
        }
        if (head) {
            LockSupport.unpark(loop);
        }
    }

    /**
     * The fast path's read of {@link #waiting} without {@link #lock}: safe because
     * {@link DelayHeap#find} reads only its concurrent index and a node's volatile ready time (see
     * {@link DelayHeap}'s class comment); every other access to the heap holds the lock.
     */
    @SuppressWarnings("GuardedBy") // DelayHeap.find is documented lock-free; see above
    private DelayHeap.Node<T> findWithoutLock(T item) {
        return waiting.find(item);
    }

    private void waitingLoop() {
        while (!stopped) {
            long now = ticker.nanoTime();
            long next;
            lock.lock();
            try {
                DelayHeap.Node<T> head;
                while ((head = waiting.peek()) != null && head.readyAt - now <= 0) {
                    queue.add(waiting.poll().item);
                }
                next = head == null ? Long.MAX_VALUE : head.readyAt;
            } finally {
                lock.unlock();
            }
            if (stopped) {
                break;
            }
            long heartbeat = Durations.saturatedAdd(now, HEARTBEAT);
            ticker.parkUntil(next - heartbeat < 0 ? next : heartbeat);
        }
        lock.lock();
        try {
            waiting.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Number of items waiting for their time; for tests. */
    int waitingCount() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** The waiting-loop thread; for tests. */
    Thread loopThread() {
        return loop;
    }

    @Override
    public void add(T item) {
        queue.add(item);
    }

    @Override
    public Optional<T> get() {
        return queue.get();
    }

    @Override
    public void done(T item) {
        queue.done(item);
    }

    @Override
    public int len() {
        return queue.len();
    }

    @Override
    public void shutDown() {
        queue.shutDown();
        stopLoop();
    }

    @Override
    public void shutDownWithDrain() {
        try {
            queue.shutDownWithDrain();
        } finally {
            stopLoop();
        }
    }

    private void stopLoop() {
        stopped = true;
        LockSupport.unpark(loop);
        Joins.joinUninterruptibly(loop);
    }

    @Override
    public boolean isShuttingDown() {
        return queue.isShuttingDown();
    }

    @Override
    public void close() {
        shutDown();
    }

    /** The wrapped queue; for tests. */
    DefaultWorkQueue<T> queue() {
        return queue;
    }

    @Override
    public String toString() {
        return "DelayingQueue[" + queue + ", waiting=" + waitingCount() + "]";
    }
}
