package io.kubeloop.controller;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last reconcile of the keys a controller reconciled most recently, at most {@link #CAPACITY} of
 * them (the least recently reconciled forgotten first), from which {@link HotKeys} are drawn.
 *
 * <p>Thread-safe: one short lock per reconcile and per read.
 */
final class RecentKeys {

    /** How many keys are remembered. */
    static final int CAPACITY = 1024;

    private final Object lock = new Object();

    @GuardedBy("lock")
    private final LinkedHashMap<Request, HotKeys.Key> keys = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Request, HotKeys.Key> eldest) {
            return size() > CAPACITY;
        }
    };

    /** {@code request} was reconciled in {@code nanos}; its queue now counts {@code retries} failures. */
    void reconciled(Request request, long nanos, int retries) {
        HotKeys.Key key = new HotKeys.Key(request, Duration.ofNanos(nanos), retries);
        synchronized (lock) {
            keys.put(request, key);
        }
    }

    /** The hot keys now. */
    HotKeys hot() {
        List<HotKeys.Key> snapshot;
        synchronized (lock) {
            snapshot = new ArrayList<>(keys.values());
        }
        return HotKeys.of(snapshot);
    }
}
