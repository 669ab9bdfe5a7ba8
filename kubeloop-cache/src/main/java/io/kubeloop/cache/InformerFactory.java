package io.kubeloop.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shares informers (client-go's {@code SharedInformerFactory}): one informer per (type or resource,
 * {@link InformerScope}), handed to everyone who asks for it.
 *
 * {@snippet :
 * try (InformerFactory factory = InformerFactory.create(client, InformerOptions.defaults())) {
 *     SharedIndexInformer<Pod> pods = factory.informerFor(Pod.class, InformerScope.all());
 *     SharedIndexInformer<DynamicObject> foos = factory.dynamicInformerFor("foos.samplecontroller.k8s.io", InformerScope.all());
 *     factory.start();
 *     factory.waitForCacheSync(Duration.ofSeconds(30));
 * }
 * }
 *
 * <p>{@link #start()} starts the informers not yet started (call it again for informers asked for
 * later); it is idempotent, returns at once and does nothing after {@link #shutdown()}.
 * {@link #waitForCacheSync} waits for started informers only. {@link #shutdown()} stops every
 * informer and waits for their threads; it may be called again. A shut-down factory hands out
 * nothing: asking it for an informer or a lister throws {@link IllegalStateException} at once
 * (naming the type asked for), instead of returning an informer that would never start — and a
 * controller over it that would wait out its whole cache-sync timeout.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
public final class InformerFactory implements AutoCloseable {

    /**
     * The identity of a shared informer.
     *
     * @param resource the resource listed and watched
     * @param type the Java type objects are read into
     * @param scope namespace and selectors
     */
    public record Key(GroupVersionResource resource, Class<?> type, InformerScope scope) {}

    private final KubeClient client;
    private final InformerOptions options;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final Map<Key, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final Map<Key, Boolean> started = new LinkedHashMap<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private boolean shutDown;

    private InformerFactory(KubeClient client, InformerOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** A factory whose informers use {@code client} and {@code options} (resync, queue, reflector settings). */
    public static InformerFactory create(KubeClient client, InformerOptions options) {
        return new InformerFactory(client, options);
    }

    /**
     * The shared informer for a Java type known to the client's scheme (built-in kinds, {@code @Kind} records).
     *
     * @throws IllegalStateException if the factory was shut down
     */
    public <T> SharedIndexInformer<T> informerFor(Class<T> type, InformerScope scope) {
        requireNotShutDown(type.getName());
        ResourceClient<T> rc = client.resource(type);
        return informer(rc, type, scope, type.getName());
    }

    /**
     * The shared informer of {@link DynamicObject}s for a resource and scope.
     *
     * @throws IllegalStateException if the factory was shut down
     */
    public SharedIndexInformer<DynamicObject> dynamicInformerFor(
            GroupVersionResource resource, ResourceScope resourceScope, InformerScope scope) {
        requireNotShutDown(resource.toString());
        return informer(
                client.resource(resource, resourceScope, DynamicObject.class),
                DynamicObject.class,
                scope,
                resource.toString());
    }

    /**
     * The shared informer of {@link DynamicObject}s for a resource named as kubectl accepts it
     * ({@code deployments.apps}, {@code foos}), resolved through discovery.
     *
     * @throws IllegalStateException if the factory was shut down (checked before discovery is asked)
     */
    public SharedIndexInformer<DynamicObject> dynamicInformerFor(String resource, InformerScope scope) {
        requireNotShutDown(resource);
        return informer(client.resource(resource), DynamicObject.class, scope, resource);
    }

    /**
     * The shared informer of the metadata of {@code type}'s objects: it lists and watches them as
     * {@code meta.k8s.io/v1} PartialObjectMetadata ({@link KubeClient#metadataResource}), so its
     * cache holds names, labels, annotations and owners only — client-go's metadata informer. Its
     * objects carry {@code type}'s apiVersion and kind.
     *
     * @param type a Java type known to the client's scheme, e.g. a Pod model class
     * @param scope namespace and selectors
     * @throws IllegalStateException if the factory was shut down
     */
    public SharedIndexInformer<PartialObjectMetadata> metadataInformerFor(Class<?> type, InformerScope scope) {
        requireNotShutDown(type.getName());
        ResourceClient<?> typed = client.resource(type);
        GroupVersionKind kind = client.scheme()
                .gvkOf(type)
                .orElseThrow(() -> new IllegalArgumentException(type.getName() + " has no kind in the scheme"));
        ResourceClient<PartialObjectMetadata> rc = client.metadataResource(
                typed.resource(), typed.namespaced() ? ResourceScope.NAMESPACED : ResourceScope.CLUSTER);
        lock.lock();
        try {
            boolean made = informers.containsKey(new Key(rc.resource(), PartialObjectMetadata.class, scope));
            SharedIndexInformer<PartialObjectMetadata> informer =
                    informer(rc, PartialObjectMetadata.class, scope, "metadata of " + type.getName());
            if (!made) {
                informer.setTransform(m -> m.withKind(kind));
            }
            return informer;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A lister over the shared informer for {@code type} and {@code scope}.
     *
     * @throws IllegalStateException if the factory was shut down
     */
    public <T> Lister<T> listerFor(Class<T> type, InformerScope scope) {
        requireNotShutDown(type.getName());
        GroupVersionResource gvr = client.resource(type).resource();
        return Lister.create(informerFor(type, scope).indexer(), new GroupResource(gvr.group(), gvr.resource()));
    }

    /** Fails fast, before any resolution, when the factory is shut down; {@link #informer} checks again under the lock. */
    private void requireNotShutDown(String asked) {
        lock.lock();
        try {
            if (shutDown) {
                throw shutDownFor(asked);
            }
        } finally {
            lock.unlock();
        }
    }

    private static IllegalStateException shutDownFor(String asked) {
        return new IllegalStateException("the informer factory is shut down: it hands out no informer for " + asked
                + " (informers of a shut-down factory never start)");
    }

    @SuppressWarnings("unchecked")
    private <T> SharedIndexInformer<T> informer(
            ResourceClient<T> rc, Class<T> type, InformerScope scope, String asked) {
        Objects.requireNonNull(scope, "scope");
        Key key = new Key(rc.resource(), type, scope);
        lock.lock();
        try {
            if (shutDown) {
                throw shutDownFor(asked);
            }
            SharedIndexInformer<?> existing = informers.get(key);
            if (existing != null) {
                return (SharedIndexInformer<T>) existing;
            }
            ResourceClient<T> scoped = !rc.namespaced()
                    ? rc
                    : scope.namespace().isEmpty() ? rc.inAnyNamespace() : rc.inNamespace(scope.namespace());
            ListerWatcher<T> lw =
                    ListerWatcher.of(scoped, ListerWatcher.selectors(scope.labelSelector(), scope.fieldSelector()));
            InformerOptions o = options.toBuilder()
                    .reflector(options.reflector().toBuilder()
                            .name(rc.resource().resource() + "[" + scope + "]")
                            .build())
                    .build();
            SharedIndexInformer<T> informer = SharedIndexInformer.create(lw, o);
            informers.put(key, informer);
            return informer;
        } finally {
            lock.unlock();
        }
    }

    /** Starts every informer not yet started; idempotent; no-op after {@link #shutdown()}. */
    public void start() {
        lock.lock();
        try {
            if (shutDown) {
                return;
            }
            for (Map.Entry<Key, SharedIndexInformer<?>> e : informers.entrySet()) {
                if (started.putIfAbsent(e.getKey(), Boolean.TRUE) == null) {
                    e.getValue().start();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every started informer has synced or {@code timeout}, on the options' ticker, has
     * run out.
     *
     * @return per started informer, whether it has synced
     */
    public Map<Key, Boolean> waitForCacheSync(Duration timeout) {
        Map<Key, SharedIndexInformer<?>> toWait = startedInformers();
        Ticker ticker = options.ticker();
        long deadline = Ticker.deadline(ticker.nanoTime(), timeout);
        Map<Key, Boolean> result = new LinkedHashMap<>();
        for (Map.Entry<Key, SharedIndexInformer<?>> e : toWait.entrySet()) {
            Duration left = Duration.ofNanos(Math.max(0, deadline - ticker.nanoTime()));
            result.put(e.getKey(), e.getValue().waitForCacheSync(left));
        }
        return result;
    }

    /**
     * The started informers that have a {@linkplain SharedIndexInformer#lastSyncError() list or watch error}
     * now (a refusal names user, verb, resource and namespace), with that error.
     */
    public Map<Key, RuntimeException> syncErrors() {
        Map<Key, RuntimeException> out = new LinkedHashMap<>();
        startedInformers().forEach((k, informer) -> informer.lastSyncError().ifPresent(e -> out.put(k, e)));
        return out;
    }

    /** The informers started so far, in the order they started: a snapshot. */
    public Map<Key, SharedIndexInformer<?>> startedInformers() {
        Map<Key, SharedIndexInformer<?>> running = new LinkedHashMap<>();
        lock.lock();
        try {
            for (Key k : started.keySet()) {
                running.put(k, informers.get(k));
            }
        } finally {
            lock.unlock();
        }
        return running;
    }

    /** Stops every informer and waits for their threads; repeatable. */
    public void shutdown() {
        List<SharedIndexInformer<?>> all;
        lock.lock();
        try {
            shutDown = true;
            all = new ArrayList<>(informers.values());
        } finally {
            lock.unlock();
        }
        for (SharedIndexInformer<?> i : all) {
            i.close();
        }
    }

    /** {@link #shutdown()}. */
    @Override
    public void close() {
        shutdown();
    }
}
