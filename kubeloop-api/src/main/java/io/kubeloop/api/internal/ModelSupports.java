package io.kubeloop.api.internal;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.spi.ModelSupport;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

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
        for (ModelSupport s : Loaded.ALL) {
            ObjectMeta m = s.metadata(object);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** The first support's {@link ModelSupport#withoutManagedFields} of {@code object}, or null when none knows its type. */
    public static Object withoutManagedFields(Object object) {
        for (ModelSupport s : Loaded.ALL) {
            Object stripped = s.withoutManagedFields(object);
            if (stripped != null) {
                return stripped;
            }
        }
        return null;
    }
}
