package io.kubeloop.controller.client;

import io.kubeloop.time.Durations;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a manager's {@link Cache} holds: controller-runtime's {@code cache.Options}. By default,
 * every object of every type read or watched, in all namespaces, without {@code
 * metadata.managedFields}. Narrow it for a controller that works in some namespaces, or on some
 * objects of a large kind:
 *
 * {@snippet :
 * ManagerOptions options = ManagerOptions.defaults().withCache(CacheOptions.defaults()
 *         .withDefaultNamespaces("shop", "billing")
 *         .with(ByObject.of(Secret.class).withLabelSelector("app.kubernetes.io/managed-by=foo")));
 * }
 *
 * <p><b>managedFields.</b> Server-side apply's field ownership is typically a third of an object's
 * size and almost no controller reads it, so the cache drops it from every object before storing it
 * ({@link io.kubeloop.cache.Transforms#stripManagedFields()}, run before a type's own {@linkplain
 * ByObject#transform() transform}), as controller-runtime's {@code TransformStripManagedFields} does
 * when a manager opts in. Writes are unaffected: an update whose object carries no {@code
 * managedFields} leaves the server's record of them as it was. A controller that reads them opts out
 * with {@link #keepingManagedFields()}; reads past the cache ({@code Manager#apiReader()}) always carry them.
 *
 * <p>Immutable.
 *
 * @param defaultNamespaces the namespaces held for types whose {@link ByObject} names none; empty
 *     for all namespaces
 * @param byObject per type, its scope
 * @param syncTimeout how long a read waits for a type's informers to sync before it fails; positive
 * @param keepManagedFields whether cached objects keep {@code metadata.managedFields}; false by default
 */
public record CacheOptions(
        Set<String> defaultNamespaces,
        Map<Class<?>, ByObject<?>> byObject,
        Duration syncTimeout,
        boolean keepManagedFields) {

    private static final CacheOptions DEFAULTS = new CacheOptions(Set.of(), Map.of(), Duration.ofMinutes(2), false);

    public CacheOptions {
        defaultNamespaces = Set.copyOf(defaultNamespaces);
        if (defaultNamespaces.contains("")) {
            throw new IllegalArgumentException("namespaces must be names; leave them out for all namespaces");
        }
        byObject = Map.copyOf(byObject);
        byObject.forEach((type, scope) -> {
            if (scope.type() != type) {
                throw new IllegalArgumentException("the scope of " + type.getName() + " is for "
                        + scope.type().getName());
            }
        });
        Objects.requireNonNull(syncTimeout, "syncTimeout");
        if (syncTimeout.isZero() || syncTimeout.isNegative()) {
            throw new IllegalArgumentException("syncTimeout must be positive, got " + Durations.format(syncTimeout));
        }
    }

    /** Everything, in all namespaces, without managedFields; reads wait up to two minutes for a sync. */
    public static CacheOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Holds only these namespaces for types whose scope names none.
     *
     * @param namespaces namespace names
     * @return a changed copy
     */
    public CacheOptions withDefaultNamespaces(String... namespaces) {
        return new CacheOptions(Set.copyOf(Arrays.asList(namespaces)), byObject, syncTimeout, keepManagedFields);
    }

    /**
     * Sets the scope of one type (replacing an earlier one).
     *
     * @param scope the type's scope
     * @return a changed copy
     */
    public CacheOptions with(ByObject<?> scope) {
        Map<Class<?>, ByObject<?>> copy = new LinkedHashMap<>(byObject);
        copy.put(scope.type(), scope);
        return new CacheOptions(defaultNamespaces, copy, syncTimeout, keepManagedFields);
    }

    /**
     * Sets how long a read waits for a sync.
     *
     * @param timeout positive
     * @return a changed copy
     */
    public CacheOptions withSyncTimeout(Duration timeout) {
        return new CacheOptions(defaultNamespaces, byObject, timeout, keepManagedFields);
    }

    /**
     * Keeps {@code metadata.managedFields} in cached objects, for a controller that reads field
     * ownership from the cache (at the cost of about a third more memory per object).
     *
     * @return a changed copy
     */
    public CacheOptions keepingManagedFields() {
        return new CacheOptions(defaultNamespaces, byObject, syncTimeout, true);
    }

    /**
     * The scope of {@code type}: its own, or everything in the default namespaces.
     *
     * @param type the type
     * @param <T> the type
     * @return the scope
     */
    @SuppressWarnings("unchecked")
    public <T> ByObject<T> scopeOf(Class<T> type) {
        ByObject<T> own = (ByObject<T>) byObject.get(type);
        ByObject<T> scope = Optional.ofNullable(own).orElseGet(() -> ByObject.of(type));
        return scope.namespaces().isEmpty() && !defaultNamespaces.isEmpty()
                ? scope.inNamespaces(defaultNamespaces.toArray(String[]::new))
                : scope;
    }
}
