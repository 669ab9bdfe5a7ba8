package io.kubeloop.controller.internal.desired;

import io.kubeloop.api.GroupVersionKind;

/**
 * Makes a controller watch a kind for the owners of its objects, from the first time the kind is
 * applied as an owned object on: what {@code ControllerBuilder.owns} declares up front.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe and idempotent.
 */
public interface OwnedKinds {

    /** Watches nothing: for reconciles outside a controller. */
    OwnedKinds NONE = new OwnedKinds() {
        @Override
        public void watch(Class<?> type) {}

        @Override
        public void watch(GroupVersionKind kind) {}
    };

    /**
     * Watches objects of {@code type} (typed informers) for their owners; nothing if already.
     *
     * @param type the owned objects' Java type
     */
    void watch(Class<?> type);

    /**
     * Watches objects of {@code kind} (dynamic informers) for their owners; nothing if already.
     *
     * @param kind the owned objects' kind
     */
    void watch(GroupVersionKind kind);
}
