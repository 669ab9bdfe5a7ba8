package io.kubeloop.controller.internal.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import java.util.function.UnaryOperator;

/**
 * Copies of cached objects for readers to own: controller-runtime's deep copy on cache reads.
 * {@link DynamicObject}s are immutable and returned as they are; every other type is copied through
 * its JSON form (what the informer decoded it from, so the copy is equal to the original).
 *
 * <p>Stateless; thread-safe.
 */
final class Copies {

    private Copies() {}

    /** The copier for {@code type}: the identity when its objects are immutable. */
    static <T> UnaryOperator<T> copier(Class<T> type) {
        if (type == DynamicObject.class) {
            return UnaryOperator.identity();
        }
        return object -> KubeJson.mapper().readValue(KubeJson.mapper().writeValueAsBytes(object), type);
    }
}
