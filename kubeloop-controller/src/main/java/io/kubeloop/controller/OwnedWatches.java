package io.kubeloop.controller;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.GroupKind;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.internal.desired.OwnedKinds;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The owner watches a controller adds when a reconcile first applies an owned kind
 * ({@link ReconcileContext#owned}): the kind's informers in the manager's cache, mapped to the
 * controlling owner of the reconciled kind ({@link EventHandler#forOwner}), through the builder's
 * event filter — what {@link ControllerBuilder#owns} registers at build time. Kinds declared with
 * {@code owns} or {@code ownsMetadataOnly} are watched already and get no second watch.
 *
 * <p>Invariant: a key (a Java type, or a kind for dynamic objects) is in {@link #watched} only
 * once every informer of it has the controller's handler.
 *
 * <p><b>Thread safety:</b> thread-safe; registrations happen under {@link #lock}.
 */
final class OwnedWatches implements OwnedKinds {

    private final GroupKind ownerKind;
    private final ResourceScope ownerScope;
    private final Cache cache;
    private final Predicate<? super Event<?>> eventFilter;
    private final Object lock = new Object();

    @GuardedBy("lock")
    private final Set<Object> watched;

    /** Set once, right after the controller is made. */
    private volatile Controller controller;

    OwnedWatches(
            GroupKind ownerKind,
            ResourceScope ownerScope,
            Cache cache,
            Predicate<? super Event<?>> eventFilter,
            Collection<Class<?>> declared) {
        this.ownerKind = Objects.requireNonNull(ownerKind, "ownerKind");
        this.ownerScope = Objects.requireNonNull(ownerScope, "ownerScope");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.eventFilter = Objects.requireNonNull(eventFilter, "eventFilter");
        this.watched = new HashSet<>(declared);
    }

    /** Binds the controller that watches. */
    void bind(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public void watch(Class<?> type) {
        register(type, () -> cache.informersFor(type));
    }

    @Override
    public void watch(GroupVersionKind kind) {
        register(kind, () -> cache.informersFor(kind));
    }

    private <U> void register(Object key, Supplier<List<SharedIndexInformer<U>>> informers) {
        synchronized (lock) {
            if (watched.contains(key)) {
                return;
            }
            Controller c = controller;
            if (c == null) {
                throw new IllegalStateException("owned objects are applied before their controller exists");
            }
            EventHandler<U> toOwner = EventHandler.forOwner(ownerKind, ownerScope);
            for (SharedIndexInformer<U> informer : informers.get()) {
                c.watch(informer, toOwner, eventFilter::test);
            }
            watched.add(key);
        }
    }
}
