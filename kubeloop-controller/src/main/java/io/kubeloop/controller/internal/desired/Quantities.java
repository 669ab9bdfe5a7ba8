package io.kubeloop.controller.internal.desired;

import io.kubeloop.api.Quantity;
import java.util.Optional;

/**
 * The canonical text of a Kubernetes quantity ({@code resource.Quantity}), as kube-apiserver writes
 * back what it was sent: {@code 1000m} becomes {@code 1}, {@code 1.5} {@code 1500m}, {@code 1.5Gi}
 * {@code 1536Mi} ({@link Quantity#canonical()}), for text that may be no quantity at all.
 *
 * <p>Stateless; thread-safe.
 */
final class Quantities {

    private Quantities() {}

    /**
     * The canonical text of {@code text}, or empty when it is no quantity.
     *
     * @param text e.g. {@code 1000m}
     * @return e.g. {@code 1}
     */
    static Optional<String> canonical(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Quantity.parse(text).canonical());
        } catch (IllegalArgumentException notAQuantity) {
            return Optional.empty();
        }
    }
}
