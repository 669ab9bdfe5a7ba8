package io.kubeloop.api.internal;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.spi.ModelSupport;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The {@link ModelSupport}s on the module or class path, loaded once (the first time one is needed) and kept
 * in the order the service loader found them. Immutable once loaded; thread-safe.
 */
public final class ModelSupports {

    private ModelSupports() {}

    /** The lazily loaded list (the holder idiom: loaded on first use, once). */
    private static final class Loaded {
        static final List<ModelSupport> ALL =
                ServiceLoader.load(ModelSupport.class, ModelSupport.class.getClassLoader()).stream()
                        .map(ServiceLoader.Provider::get)
                        .toList();
    }

    /** Every support found. */
    public static List<ModelSupport> all() {
        return Loaded.ALL;
    }

    /** The first support's mapping of {@code type}, or empty. */
    public static Optional<ResourceMapping> mappingOf(Class<?> type) {
        for (ModelSupport s : Loaded.ALL) {
            Optional<ResourceMapping> m = s.mappingOf(type);
            if (m.isPresent()) {
                return m;
            }
        }
        return Optional.empty();
    }

    /** The first support's metadata of {@code object}, or null when none knows its type. */
    public static ObjectMeta metadata(Object object) {
        return first(s -> s.metadata(object));
    }

    /** The first support's {@link ModelSupport#withoutManagedFields} of {@code object}, or null when none knows its type. */
    public static Object withoutManagedFields(Object object) {
        return first(s -> s.withoutManagedFields(object));
    }

    /** The first non-null answer of the supports, in their order; null when none answers. */
    private static <R> R first(Function<ModelSupport, R> answer) {
        for (ModelSupport s : Loaded.ALL) {
            R r = answer.apply(s);
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
