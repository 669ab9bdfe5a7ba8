package io.kubeloop.controller;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The fail-fast step of a {@link Manager}'s start: waits for the caches of every controller built by
 * {@link ControllerBuilder} (a {@link DefaultController}), all at once, one virtual thread each.
 *
 * <p>Invariants: the first failure, and only it, is handed to the manager's {@code fail} action (which
 * records it and closes the manager, ending the other waits) and then thrown; an interrupt of the
 * waiting thread is handed over and thrown the same way, the interrupt flag kept. Controllers of other
 * implementations are not waited for.
 *
 * <p><b>Thread safety:</b> stateless; {@link #await} may run on any thread, and {@code fail} may be
 * called from any of the waiting threads. Package-private: it needs {@link DefaultController}.
 */
final class CacheSyncBarrier {

    private CacheSyncBarrier() {}

    /**
     * Waits for the caches of {@code controllers}; on the first failure calls {@code fail} and throws it.
     *
     * @param controllers the manager's controllers
     * @param fail records a failure as the manager's and closes the manager
     */
    static void await(List<Controller> controllers, Consumer<RuntimeException> fail) {
        List<DefaultController> waiting = controllers.stream()
                .filter(DefaultController.class::isInstance)
                .map(DefaultController.class::cast)
                .toList();
        AtomicReference<RuntimeException> first = new AtomicReference<>();
        List<Thread> waits = waiting.stream()
                .map(c -> Thread.ofVirtual().name("sync-" + c.name()).start(() -> {
                    try {
                        c.awaitCachesSynced();
                    } catch (RuntimeException e) {
                        if (first.compareAndSet(null, e)) {
                            fail.accept(e);
                        }
                    }
                }))
                .toList();
        try {
            for (Thread wait : waits) {
                wait.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            IllegalStateException interrupted =
                    new IllegalStateException("interrupted while waiting for the controllers' caches to sync");
            fail.accept(interrupted);
            throw interrupted;
        }
        if (first.get() != null) {
            throw first.get();
        }
    }
}
