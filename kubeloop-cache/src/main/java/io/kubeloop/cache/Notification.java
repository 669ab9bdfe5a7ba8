package io.kubeloop.cache;

/** What a processor listener buffers for its handler. */
sealed interface Notification<T> {

    record Add<T>(T object, boolean isInInitialList) implements Notification<T> {
    }

    record Update<T>(T oldObject, T newObject) implements Notification<T> {
    }

    record Delete<T>(T object, boolean finalStateUnknown) implements Notification<T> {
    }
}
