package io.kubeloop.controller.util;

import io.kubeloop.api.ObjectAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ArrayNode;

/**
 * Finalizers as controller-runtime's {@code controllerutil} handles them, for objects of any Java
 * type. {@link #add} and {@link #remove} return a copy (the object passed in, from a cache perhaps,
 * is never changed) and return the object itself when there is nothing to do, so
 * {@code updated != object} tells whether to write it back.
 *
 * {@snippet :
 * if (ObjectAccess.metadata(foo).isTerminating()) {
 *     if (Finalizers.contains(foo, FINALIZER)) {
 *         cleanUpExternalResources(foo);
 *         foos.update(Finalizers.remove(foo, FINALIZER));   // the server deletes it once none are left
 *     }
 *     return Result.done();
 * }
 * Foo withFinalizer = Finalizers.add(foo, FINALIZER);
 * if (withFinalizer != foo) {
 *     foos.update(withFinalizer);
 * }
 * }
 *
 * <p>Stateless; thread-safe.
 */
public final class Finalizers {

    private Finalizers() {}

    /**
     * Whether the object carries the finalizer.
     *
     * @param object any object
     * @param finalizer e.g. {@code samplecontroller.k8s.io/cleanup}
     * @return true if present
     */
    public static boolean contains(Object object, String finalizer) {
        return ObjectAccess.metadata(object)
                .finalizersOrEmpty()
                .contains(Objects.requireNonNull(finalizer, "finalizer"));
    }

    /**
     * The object with {@code finalizer} appended, or the object itself if it has it already.
     *
     * @param object any object
     * @param finalizer the finalizer
     * @param <T> the type
     * @return a copy with the finalizer, or {@code object}
     */
    public static <T> T add(T object, String finalizer) {
        if (contains(object, finalizer)) {
            return object;
        }
        List<String> finalizers = new ArrayList<>(ObjectAccess.metadata(object).finalizersOrEmpty());
        finalizers.add(finalizer);
        return withFinalizers(object, finalizers);
    }

    /**
     * The object without {@code finalizer} (every occurrence), or the object itself if it does not
     * have it.
     *
     * @param object any object
     * @param finalizer the finalizer
     * @param <T> the type
     * @return a copy without the finalizer, or {@code object}
     */
    public static <T> T remove(T object, String finalizer) {
        if (!contains(object, finalizer)) {
            return object;
        }
        List<String> finalizers = new ArrayList<>(ObjectAccess.metadata(object).finalizersOrEmpty());
        finalizers.removeIf(finalizer::equals);
        return withFinalizers(object, finalizers);
    }

    private static <T> T withFinalizers(T object, List<String> finalizers) {
        return MetadataEdit.copyWith(object, metadata -> {
            if (finalizers.isEmpty()) {
                metadata.remove("finalizers");
            } else {
                ArrayNode array = metadata.putArray("finalizers");
                finalizers.forEach(array::add);
            }
        });
    }
}
