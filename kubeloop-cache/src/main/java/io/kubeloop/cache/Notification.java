package io.kubeloop.cache;

/** What a processor listener buffers for its handler. */
sealed interface Notification<T> {

    record Add<T>(T object, boolean isInInitialList) implements Notification<T> {}

    /** {@code unchanged}: both objects have the same resourceVersion (a resync or relist), decided once by the informer. */
    record Update<T>(T oldObject, T newObject, boolean unchanged) implements Notification<T> {}

    record Delete<T>(T object, boolean finalStateUnknown) implements Notification<T> {}
}
