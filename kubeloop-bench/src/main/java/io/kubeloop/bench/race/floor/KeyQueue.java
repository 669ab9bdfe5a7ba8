package io.kubeloop.bench.race.floor;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The least a correct controller's queue does, as client-go's work queue does it: a key added while
 * queued is queued once; a key added while a worker processes it is queued again only when that worker
 * is done, so no two workers ever reconcile the same key at once. No rate limiting, no metrics.
 *
 * <p>Thread-safe.
 */
final class KeyQueue {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> processing = new HashSet<>();
    private boolean shutDown;

    void add(String key) {
        lock.lock();
        try {
            if (dirty.add(key) && !processing.contains(key)) {
                queue.add(key);
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The next key, marked as processing; null once shut down. */
    String take() throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty() && !shutDown) {
                notEmpty.await();
            }
            if (shutDown) {
                return null;
            }
            String key = queue.poll();
            dirty.remove(key);
            processing.add(key);
            return key;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the processing of {@code key}; queues it again if it was added meanwhile. */
    void done(String key) {
        lock.lock();
        try {
            processing.remove(key);
            if (dirty.contains(key)) {
                queue.add(key);
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    void shutDown() {
        lock.lock();
        try {
            shutDown = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
