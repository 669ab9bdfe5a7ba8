package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Fans an informer's notifications out to its listeners (client-go's {@code sharedProcessor}).
 * Resync notifications go only to the listeners flagged by the last resync tick; the flags start
 * set and change only on ticks.
 */
final class SharedProcessor<T> {

    private final Ticker ticker;
    private final ThreadFactory threads;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final List<ProcessorListener<T>> listeners = new ArrayList<>();
    /** Guarded by lock: the listeners due for resync notifications. */
    @GuardedBy("lock")
    private List<ProcessorListener<T>> syncingListeners = new ArrayList<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private boolean started;

    SharedProcessor(Ticker ticker, ThreadFactory threads) {
        this.ticker = ticker;
        this.threads = threads;
    }

    void addListener(ProcessorListener<T> listener) {
        lock.writeLock().lock();
        try {
            listener.determineNextResync(ticker.nanoTime());
            listeners.add(listener);
            syncingListeners.add(listener);
            if (started) {
                listener.start(threads);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the listener; false when it was not registered. */
    boolean removeListener(ProcessorListener<?> listener) {
        lock.writeLock().lock();
        try {
            syncingListeners.remove(listener);
            return listeners.remove(listener);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void distribute(Notification<T> n, boolean isSync) {
        lock.readLock().lock();
        try {
            for (ProcessorListener<T> l : isSync ? syncingListeners : listeners) {
                l.add(n);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    void start() {
        lock.writeLock().lock();
        try {
            started = true;
            for (ProcessorListener<T> l : listeners) {
                l.start(threads);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Flags the listeners whose resync is due; true when any is (then the queue resyncs). */
    boolean shouldResync() {
        lock.writeLock().lock();
        try {
            long now = ticker.nanoTime();
            List<ProcessorListener<T>> due = new ArrayList<>();
            for (ProcessorListener<T> l : listeners) {
                if (l.shouldResync(now)) {
                    due.add(l);
                    l.determineNextResync(now);
                }
            }
            syncingListeners = due;
            return !due.isEmpty();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The check period changed before start: recompute every listener's effective period. */
    void resyncCheckPeriodChanged(Duration checkPeriod) {
        lock.writeLock().lock();
        try {
            for (ProcessorListener<T> l : listeners) {
                l.setResyncPeriod(effectiveResyncPeriod(l.requestedResyncPeriod(), checkPeriod));
                l.determineNextResync(ticker.nanoTime());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** client-go's determineResyncPeriod. */
    static Duration effectiveResyncPeriod(Duration desired, Duration check) {
        if (desired.isZero() || check.isZero()) {
            return Duration.ZERO;
        }
        return desired.compareTo(check) < 0 ? check : desired;
    }

    /** Stops every listener and waits for their threads. */
    void stopAll() {
        List<ProcessorListener<T>> all;
        lock.writeLock().lock();
        try {
            all = new ArrayList<>(listeners);
            listeners.clear();
            syncingListeners = new ArrayList<>();
        } finally {
            lock.writeLock().unlock();
        }
        for (ProcessorListener<T> l : all) {
            l.stop();
        }
        for (ProcessorListener<T> l : all) {
            l.stopAndWait();
        }
    }
}
