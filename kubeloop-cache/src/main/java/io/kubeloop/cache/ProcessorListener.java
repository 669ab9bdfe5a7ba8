package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Joins;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler's delivery: an unbounded buffer that never blocks the informer, drained by the
 * handler's own thread (client-go's {@code processorListener}, whose pump and run goroutines are
 * one thread here).
 *
 * @implNote The buffer is unbounded: a handler that never returns makes it grow without limit.
 */
final class ProcessorListener<T> implements ResourceEventHandlerRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessorListener.class);

    private final ResourceEventHandler<T> handler;
    private final BooleanSupplier informerSynced;
    private final String name;
    private final Duration requestedResyncPeriod;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final ArrayDeque<Notification<T>> buffer = new ArrayDeque<>(64);
    /** Guarded by lock. */
    @GuardedBy("lock")
    private boolean stopped;
    /** Guarded by lock. */
    @GuardedBy("lock")
    private Thread thread;
    /** Initial-list adds queued or being handled (client-go's synctrack count). */
    private final AtomicInteger pendingInitial = new AtomicInteger();

    private final LongAdder errors = new LongAdder();
    private final LongAdder informerErrors;
    /** Written under the processor's lock; read anywhere. */
    private volatile Duration resyncPeriod;
    /** Guarded by the processor's lock: ticker nanos of the next resync. */
    private long nextResync;
    /** The handler's name in metrics. */
    private final String handlerName;

    private final InformerMetrics metrics;
    /** Null when metrics are off: nothing is timed then. */
    private final Ticker ticker;
    /** Guarded by lock: when each buffered notification was queued, in step with {@link #buffer}; timed only. */
    @GuardedBy("lock")
    private final ArrayDeque<Long> queuedAt;

    ProcessorListener(
            String name,
            ResourceEventHandler<T> handler,
            Duration requestedResyncPeriod,
            Duration resyncPeriod,
            BooleanSupplier informerSynced,
            LongAdder informerErrors,
            String handlerName,
            InformerMetrics metrics,
            Ticker ticker) {
        this.name = name;
        this.handler = handler;
        this.requestedResyncPeriod = requestedResyncPeriod;
        this.resyncPeriod = resyncPeriod;
        this.informerSynced = informerSynced;
        this.informerErrors = informerErrors;
        this.handlerName = handlerName;
        this.metrics = metrics;
        boolean timed = metrics != InformerMetrics.NONE;
        this.ticker = timed ? ticker : null;
        this.queuedAt = timed ? new ArrayDeque<>(64) : null;
    }

    /** The handler's name in metrics. */
    String handlerName() {
        return handlerName;
    }

    /** Buffers a notification; never blocks for long. Dropped once the listener stopped. */
    void add(Notification<T> n) {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            if (n instanceof Notification.Add<T> a && a.isInInitialList()) {
                pendingInitial.incrementAndGet();
            }
            buffer.addLast(n);
            if (queuedAt != null) {
                queuedAt.addLast(ticker.nanoTime());
            }
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Starts the delivery thread (once). */
    void start(ThreadFactory threads) {
        lock.lock();
        try {
            if (thread != null || stopped) {
                return;
            }
            thread = threads.newThread(this::run);
            thread.start();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (true) {
            Notification<T> n;
            long queued = 0;
            lock.lock();
            try {
                while (buffer.isEmpty() && !stopped) {
                    notEmpty.awaitUninterruptibly();
                }
                if (stopped) {
                    return;
                }
                n = buffer.removeFirst();
                if (queuedAt != null) {
                    queued = queuedAt.removeFirst();
                }
            } finally {
                lock.unlock();
            }
            if (ticker != null) {
                metrics.delivered(handlerName, Duration.ofNanos(ticker.nanoTime() - queued));
            }
            deliver(n);
        }
    }

    private void deliver(Notification<T> n) {
        try {
            switch (n) {
                case Notification.Add<T> a -> handler.onAdd(a.object(), a.isInInitialList());
                case Notification.Update<T> u -> handler.onUpdate(u.oldObject(), u.newObject(), u.unchanged());
                case Notification.Delete<T> d -> handler.onDelete(d.object(), d.finalStateUnknown());
            }
        } catch (Throwable t) {
            errors.increment();
            informerErrors.increment();
            LOG.error(
                    "{}: event handler {} failed on {}",
                    name,
                    handler,
                    n.getClass().getSimpleName(),
                    t);
            if (t instanceof VirtualMachineError vme) {
                throw vme;
            }
        } finally {
            if (n instanceof Notification.Add<T> a && a.isInInitialList()) {
                pendingInitial.decrementAndGet();
            }
        }
    }

    /** Stops delivery: buffered notifications are dropped; a call in progress completes. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            pendingInitial.addAndGet(-countInitialLocked());
            buffer.clear();
            if (queuedAt != null) {
                queuedAt.clear();
            }
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private int countInitialLocked() {
        int c = 0;
        for (Notification<T> n : buffer) {
            if (n instanceof Notification.Add<T> a && a.isInInitialList()) {
                c++;
            }
        }
        return c;
    }

    /** {@link #stop()}, then waits for the delivery thread (unless called from it). */
    void stopAndWait() {
        stop();
        Thread t;
        lock.lock();
        try {
            t = thread;
        } finally {
            lock.unlock();
        }
        Joins.joinUninterruptibly(t);
    }

    /** Notifications buffered and not yet handed to the handler. */
    int backlog() {
        lock.lock();
        try {
            return buffer.size();
        } finally {
            lock.unlock();
        }
    }

    Duration requestedResyncPeriod() {
        return requestedResyncPeriod;
    }

    void setResyncPeriod(Duration period) {
        this.resyncPeriod = period;
    }

    boolean shouldResync(long nowNanos) {
        return !resyncPeriod.isZero() && nowNanos - nextResync >= 0;
    }

    void determineNextResync(long nowNanos) {
        nextResync = nowNanos + resyncPeriod.toNanos();
    }

    @Override
    public boolean hasSynced() {
        return informerSynced.getAsBoolean() && pendingInitial.get() == 0;
    }

    @Override
    public long handlerErrors() {
        return errors.sum();
    }

    @Override
    public Duration resyncPeriod() {
        return resyncPeriod;
    }

    @Override
    public String toString() {
        return "registration of " + handler + " on " + name;
    }
}
