package io.kubeloop.controller;

import java.util.function.Consumer;

/**
 * Something a {@link Manager} runs (controller-runtime's {@code manager.Runnable}): started by the manager and
 * closed with it. Controllers, webhook servers and an application's own components (a poller, a cache warmer,
 * a server of its own) are components; {@link Manager#add(Component)} takes any of them.
 *
 * <p>A component that {@link #needsLeaderElection() needs leadership} (the default, as for controllers) starts
 * when this process becomes leader and stops when it stops leading; one that does not (a webhook server, which
 * serves on every replica) starts with the manager, before the election. {@link #start()} returns once the
 * component runs — its work goes on in threads of its own — and throws when it cannot start, which stops the
 * manager. A component that fails later tells the listener given to {@link #onFailure}, which stops the
 * manager too.
 *
 * <p>Implementations are thread-safe: the manager starts and closes them from its own threads.
 */
public interface Component extends AutoCloseable {

    /** A name for logs and errors; by default the simple name of the class. */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Starts; returns once the component runs.
     *
     * @throws RuntimeException when it cannot start (the manager stops, and its {@code start()} throws this when
     *     it was waiting for the component)
     */
    void start();

    /** Stops and waits for work in progress to end. Idempotent; a component never started just stops. */
    @Override
    void close();

    /** Whether it runs only while this process leads; true unless the component says otherwise. */
    default boolean needsLeaderElection() {
        return true;
    }

    /**
     * Registers what to call when the component fails after it started (at most once). By default nothing:
     * a component that cannot fail after start need not implement it.
     *
     * @param listener called with the failure, on the failing component's thread
     */
    default void onFailure(Consumer<? super Throwable> listener) {}
}
