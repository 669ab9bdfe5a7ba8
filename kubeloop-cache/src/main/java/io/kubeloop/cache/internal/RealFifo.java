package io.kubeloop.cache.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.cache.KeyFunction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The in-order informer queue, kubeloop's default: client-go's {@code RealFIFO} as informers use it
 * today (InOrderInformers with AtomicFIFO and UnlockWhileProcessingFIFO). Every change is one entry
 * in global arrival order, across keys; nothing is merged or dropped.
 *
 * <ul>
 *   <li>{@link #add}, {@link #update}, {@link #delete}: one entry each (deletions always queued),
 *       transformed at enqueue.</li>
 *   <li>{@link #replace}: one atomic entry holding the whole (transformed) list; popped through
 *       {@link PopProcessor#replaceAll}, which infers deletions from the cache at that moment.</li>
 *   <li>{@link #resync}: one {@link PopProcessor#resyncAll} entry (none while one is still queued).</li>
 *   <li>{@link #hasSynced}: once the first replace has been processed (counted down <em>after</em>
 *       processing), or an add/update/delete came first.</li>
 *   <li>{@link #pop}: the entry is processed with the lock released, so the reflector keeps
 *       decoding while handlers are fed; with {@value #UNLOCK_LIMIT} or more entries queued the lock
 *       is kept during processing, which makes producers wait (back-pressure).</li>
 * </ul>
 *
 * <p><b>Thread safety.</b> Thread-safe; one consumer may pop.
 *
 * @param <T> the object type
 * @see DeltaFifo
 */
public final class RealFifo<T> extends LockedInformerQueue<T> {

    /** Queue length from which processing keeps the lock (client-go's 2000). */
    public static final int UNLOCK_LIMIT = 2000;

    private record ReplaceAll<T>(List<T> objects, String resourceVersion) {}

    private enum SyncAll {
        INSTANCE
    }

    private final UnaryOperator<T> transformer;
    private final KeyFunction keyFunction;
    /** Guarded by lock: Delta, ReplaceAll or SyncAll entries, in arrival order. */
    @GuardedBy("lock")
    private final ArrayDeque<Object> entries = new ArrayDeque<>();
    /** Guarded by lock: a SyncAll entry is queued. */
    @GuardedBy("lock")
    private boolean syncAllQueued;

    /**
     * @param keyFunction used to check that every listed object has a key before a replace is queued
     * @param transformer applied to objects at enqueue; null for none
     */
    public RealFifo(KeyFunction keyFunction, UnaryOperator<T> transformer) {
        this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction");
        this.transformer = transformer;
    }

    @Override
    public void add(T object) {
        enqueue(new Delta.Added<>(transform(object)));
    }

    @Override
    public void update(T object) {
        enqueue(new Delta.Updated<>(transform(object)));
    }

    @Override
    public void delete(T object) {
        enqueue(new Delta.Deleted<>(transform(object), false));
    }

    private T transform(T object) {
        return transformer == null
                ? object
                : Objects.requireNonNull(transformer.apply(object), "transform returned null");
    }

    private void enqueue(Object entry) {
        lock.lock();
        try {
            populated = true;
            entries.addLast(entry);
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void replace(List<T> objects, String resourceVersion) {
        List<T> list = new ArrayList<>(objects.size());
        for (T o : objects) {
            keyFunction.key(o); // a key error aborts before anything is queued
            list.add(transform(o));
        }
        lock.lock();
        try {
            entries.addLast(new ReplaceAll<>(list, resourceVersion));
            if (!populated) {
                populated = true;
                initialPopulationCount = 1;
            }
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void resync() {
        lock.lock();
        try {
            if (!syncAllQueued) {
                syncAllQueued = true;
                entries.addLast(SyncAll.INSTANCE);
                notEmpty.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean pop(PopProcessor<T> processor) {
        Object entry;
        boolean isInInitialList;
        boolean keepLock;
        lock.lock();
        try {
            while (entries.isEmpty()) {
                if (closed) {
                    return false;
                }
                try {
                    notEmpty.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            isInInitialList = !hasSyncedLocked();
            entry = entries.removeFirst();
            if (entry == SyncAll.INSTANCE) {
                syncAllQueued = false;
            }
            keepLock = entries.size() >= UNLOCK_LIMIT;
            if (keepLock) {
                try {
                    dispatch(entry, isInInitialList, processor);
                } finally {
                    processedLocked(entry);
                }
                return true;
            }
        } finally {
            lock.unlock();
        }
        try {
            dispatch(entry, isInInitialList, processor);
        } finally {
            lock.lock();
            try {
                processedLocked(entry);
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    @GuardedBy("lock")
    private void processedLocked(Object entry) {
        if (initialPopulationCount > 0 && entry instanceof ReplaceAll<?>) {
            initialPopulationCount--;
        }
    }

    @SuppressWarnings("unchecked")
    private void dispatch(Object entry, boolean isInInitialList, PopProcessor<T> processor) {
        if (entry instanceof Delta<?> d) {
            processor.process(List.of((Delta<T>) d), isInInitialList);
        } else if (entry instanceof ReplaceAll<?> r) {
            processor.replaceAll((List<T>) r.objects(), r.resourceVersion(), isInInitialList);
        } else {
            processor.resyncAll();
        }
    }

    @Override
    @GuardedBy("lock")
    int sizeLocked() {
        return entries.size();
    }
}
