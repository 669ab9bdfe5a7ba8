package io.kubeloop.apiserver.internal.controllers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One metadata-only {@link SharedIndexInformer} per stored resource that can be listed, watched and deleted
 * (the garbage collector's "monitors"), following the served set: informers for CustomResourceDefinitions
 * served later are started when the {@link ResourceRegistry} changes, and those of removed ones are closed.
 *
 * <p>Each informer is fed by a {@link StoreListerWatcher}. Subscribers registered before {@link #start()} get
 * every informer, with its definition, before it starts, and add their handlers then.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops every informer and waits for its threads.
 */
public final class MetadataInformers implements AutoCloseable {

    /** Told about each informer before it starts. */
    @FunctionalInterface
    public interface Subscriber {
        /** {@code informer} of {@code definition}'s resource is about to start; add handlers now. */
        void informerAdded(ResourceDefinition definition, SharedIndexInformer<ObjectMetadata> informer);
    }

    private final VersionedStore store;
    private final ResourceRegistry resources;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    /** Storage id -> running informer. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final Map<String, SharedIndexInformer<ObjectMetadata>> informers = new HashMap<>();
    /** Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private boolean started;
    /** Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private boolean closed;

    private final Runnable onChange = this::sync;
    private final Ticker ticker;

    /** Informers on the system ticker. */
    public MetadataInformers(VersionedStore store, ResourceRegistry resources) {
        this(store, resources, Ticker.system());
    }

    /**
     * Informers whose reflectors, watches and sync timeouts run on {@code ticker}.
     *
     * @param store the storage to list and watch
     * @param resources the served resources, followed as they change
     * @param ticker the clock
     */
    public MetadataInformers(VersionedStore store, ResourceRegistry resources, Ticker ticker) {
        this.store = Objects.requireNonNull(store, "store");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /** Adds a subscriber; only before {@link #start()}. */
    public void subscribe(Subscriber subscriber) {
        lock.lock();
        try {
            if (started) {
                throw new IllegalStateException("subscribe before start()");
            }
            subscribers.add(Objects.requireNonNull(subscriber, "subscriber"));
        } finally {
            lock.unlock();
        }
    }

    /** Starts informers for every served resource and follows the served set from now on. */
    public void start() {
        lock.lock();
        try {
            if (started) {
                return;
            }
            started = true;
        } finally {
            lock.unlock();
        }
        resources.addListener(onChange);
        sync();
    }

    /** Waits until every current informer has synced; false when the timeout ran out first. */
    public boolean waitForCacheSync(Duration timeout) {
        long deadline = Ticker.deadline(ticker.nanoTime(), timeout);
        for (SharedIndexInformer<ObjectMetadata> informer : snapshot()) {
            if (!informer.waitForCacheSync(Duration.ofNanos(Math.max(0, deadline - ticker.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    /** The storage ids that have a running informer. */
    public List<String> resources() {
        lock.lock();
        try {
            return List.copyOf(informers.keySet());
        } finally {
            lock.unlock();
        }
    }

    private List<SharedIndexInformer<ObjectMetadata>> snapshot() {
        lock.lock();
        try {
            return new ArrayList<>(informers.values());
        } finally {
            lock.unlock();
        }
    }

    /** The definition each deletable stored resource is watched with: its storage version's, else the first. */
    private Map<String, ResourceDefinition> deletable() {
        Map<String, ResourceDefinition> out = new LinkedHashMap<>();
        for (ResourceDefinition d : resources.all()) {
            if (!d.verbs().containsAll(List.of("delete", "list", "watch")) && !d.terminating()) {
                continue;
            }
            ResourceDefinition prev = out.get(d.storageId());
            if (prev == null
                    || !prev.version().equals(prev.storageVersion())
                            && d.version().equals(d.storageVersion())) {
                out.put(d.storageId(), d);
            }
        }
        return out;
    }

    private void sync() {
        List<SharedIndexInformer<ObjectMetadata>> stopped = new ArrayList<>();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            Map<String, ResourceDefinition> wanted = deletable();
            for (var it = informers.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (!wanted.containsKey(e.getKey())) {
                    stopped.add(e.getValue());
                    it.remove();
                }
            }
            for (ResourceDefinition d : wanted.values()) {
                if (informers.containsKey(d.storageId())) {
                    continue;
                }
                SharedIndexInformer<ObjectMetadata> informer = SharedIndexInformer.create(
                        new StoreListerWatcher(store, d.storageId(), d.apiVersion(), d.kind(), ticker),
                        InformerOptions.builder()
                                .reflector(ReflectorOptions.builder()
                                        .name("builtin-controllers " + d.storageId())
                                        .useWatchList(false)
                                        .build())
                                .ticker(ticker)
                                .build());
                for (Subscriber s : subscribers) {
                    s.informerAdded(d, informer);
                }
                informers.put(d.storageId(), informer);
                informer.start();
            }
        } finally {
            lock.unlock();
        }
        stopped.forEach(SharedIndexInformer::close);
    }

    /** Stops following the served set and closes every informer (waiting for its threads). Idempotent. */
    @Override
    public void close() {
        resources.removeListener(onChange);
        List<SharedIndexInformer<ObjectMetadata>> all;
        lock.lock();
        try {
            closed = true;
            all = new ArrayList<>(informers.values());
            informers.clear();
        } finally {
            lock.unlock();
        }
        all.forEach(SharedIndexInformer::close);
    }
}
