package io.kubeloop.cache;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A {@link Reflector}'s resync thread: calls {@link ReflectorStore#resync()} every resync period while the
 * {@link ReflectorOptions#shouldResync()} check agrees, until the reflector stops, the thread is interrupted,
 * or a resync fails (handed to the failure callback, which ends the watch).
 *
 * <p><b>Thread safety.</b> Stateless; the thread it starts reads only the options, the store and the stop
 * flag the reflector shares with it.
 */
final class ReflectorResync {

    private ReflectorResync() {}

    /** Starts the resync thread on the options' thread factory; null when the resync period is zero. */
    static Thread start(
            ReflectorOptions options,
            ReflectorStore<?> store,
            BooleanSupplier stopped,
            Consumer<RuntimeException> onFailure) {
        Duration period = options.resyncPeriod();
        if (period.isZero()) {
            return null;
        }
        Thread t = options.threadFactory().newThread(() -> {
            while (!stopped.getAsBoolean()) {
                try {
                    options.ticker().sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                if (stopped.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    return;
                }
                try {
                    if (options.shouldResync() == null || options.shouldResync().getAsBoolean()) {
                        store.resync();
                    }
                } catch (RuntimeException e) {
                    onFailure.accept(e);
                    return;
                }
            }
        });
        t.start();
        return t;
    }
}
