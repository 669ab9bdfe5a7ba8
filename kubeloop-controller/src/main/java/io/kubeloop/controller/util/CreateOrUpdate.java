package io.kubeloop.controller.util;

import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.ResourceClient;
import java.util.Objects;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * Makes the server's object what a function says it should be (controller-runtime's
 * {@code CreateOrUpdate}): reads the object named like {@code object} from the server; if it does
 * not exist, creates {@code mutate(object)}; otherwise applies {@code mutate} to the server's copy and
 * updates it — unless nothing changed, then it writes nothing. {@code mutate} must set the fields it
 * owns and leave the rest, and must not change the name or namespace.
 *
 * {@snippet :
 * var outcome = CreateOrUpdate.apply(client.resource(ConfigMap.class), desired, cm -> {
 *     cm.setData(Map.of("replicas", "3"));
 *     return OwnerReferences.setControllerReference(foo, cm, scheme);
 * });
 * // outcome.result(): CREATED, UPDATED or NONE; outcome.object(): as the server has it now
 * }
 *
 * <p>The update carries the resourceVersion that was read, so a concurrent change fails it with a
 * {@link io.kubeloop.api.errors.ConflictException} (retry from the reconciler). Stateless;
 * thread-safe.
 */
public final class CreateOrUpdate {

    /** What {@link #apply} did. */
    public enum OperationResult {
        /** Nothing: the object was already as {@code mutate} wants it. */
        NONE,
        /** The object did not exist and was created. */
        CREATED,
        /** The object existed and was updated. */
        UPDATED
    }

    /**
     * What was done and the object as the server returned it (or as read, for {@link OperationResult#NONE}).
     *
     * @param result what was done
     * @param object the object now
     * @param <T> its type
     */
    public record Outcome<T>(OperationResult result, T object) {}

    private CreateOrUpdate() {}

    /**
     * Creates or updates the object named like {@code object}.
     *
     * @param client the resource's client (its namespace is taken from the object)
     * @param object names the object, and is the base of a new one
     * @param mutate sets the desired state on a base object; may return the same (changed) instance
     *     or a new one
     * @param <T> the type
     * @return what was done and the object now
     * @throws IllegalArgumentException if {@code mutate} changed the name or namespace
     * @throws io.kubeloop.api.errors.ApiException as the server answers (e.g. a conflict)
     */
    public static <T> Outcome<T> apply(ResourceClient<T> client, T object, UnaryOperator<T> mutate) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(mutate, "mutate");
        ObjectKey key = ObjectAccess.key(object);
        ResourceClient<T> scoped = key.namespace().isEmpty() ? client : client.inNamespace(key.namespace());
        T existing;
        try {
            existing = scoped.get(key.name());
        } catch (NotFoundException e) {
            T created = scoped.create(mutated(object, key, mutate));
            return new Outcome<>(OperationResult.CREATED, created);
        }
        JsonNode before = MetadataEdit.tree(existing).deepCopy();
        T desired = mutated(existing, key, mutate);
        if (before.equals(MetadataEdit.tree(desired))) {
            return new Outcome<>(OperationResult.NONE, existing);
        }
        return new Outcome<>(OperationResult.UPDATED, scoped.update(desired));
    }

    private static <T> T mutated(T base, ObjectKey key, UnaryOperator<T> mutate) {
        T result = Objects.requireNonNull(mutate.apply(base), "mutate returned null");
        if (!ObjectAccess.key(result).equals(key)) {
            throw new IllegalArgumentException("MutateFn cannot mutate object name and/or object namespace: " + key
                    + " became " + ObjectAccess.key(result));
        }
        return result;
    }
}
