package io.kubeloop.cli;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * SIGINT (Ctrl-C) and SIGTERM caught, where the JVM lets us ({@code sun.misc.Signal}), so that a
 * long-running command can stop cleanly, print its last line and exit 0 — a plain shutdown hook
 * would leave the exit status at 128+signal. Where a signal cannot be caught (e.g. {@code -Xrs}),
 * {@link #await()} waits for the other one or an interrupt.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class StopSignal {

    private final CountDownLatch requested = new CountDownLatch(1);

    private StopSignal() {}

    /** Catches SIGINT and SIGTERM from now on. */
    static StopSignal install() {
        StopSignal s = new StopSignal();
        s.handle("INT");
        s.handle("TERM");
        return s;
    }

    /** Blocks until SIGINT or SIGTERM arrives, or the thread is interrupted (the flag is then set again). */
    void await() {
        try {
            requested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether SIGINT or SIGTERM arrived (or {@link #trigger()} was called). */
    boolean requested() {
        return requested.getCount() == 0;
    }

    /** Stops as a signal would: for a command whose work ended on its own. */
    void trigger() {
        requested.countDown();
    }

    private void handle(String name) {
        try {
            Signal.handle(new Signal(name), signal -> requested.countDown());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // the JVM reserves this signal (e.g. -Xrs): shutdown hooks still run
        }
    }
}
