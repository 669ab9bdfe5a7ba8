package io.kubeloop.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A signal that work should stop, fired once: Go's {@code ctx.Done()} for a reconcile. A
 * controller fires its signal when it stops (the manager shuts down, or this process lost its
 * leader lease); a reconciler that loops or waits checks {@link #isCancelled()} or calls
 * {@link #throwIfCancelled()}, and the client of its {@link ReconcileContext} refuses to send
 * anything once it fired. A reconcile blocked in an API call when the signal fires is interrupted,
 * so the call ends at once.
 *
 * <p>Invariants: the signal fires at most once and never un-fires; the reason is set exactly when it
 * fires; every listener registered before firing runs once, on the firing thread, and a listener
 * registered after runs at once on the registering thread.
 *
 * <p><b>Thread safety:</b> thread-safe; {@link #isCancelled()} is a volatile read.
 */
public final class Cancellation {

    private static final Logger LOG = LoggerFactory.getLogger(Cancellation.class);

    private final Object lock = new Object();
    /** Null until fired; written once under {@link #lock}. */
    private volatile String reason;
    /** Run when fired; emptied then. Guarded by {@link #lock}. */
    private final List<Runnable> listeners = new ArrayList<>();

    private Cancellation() {}

    /**
     * A signal that has not fired.
     *
     * @return a new signal
     */
    public static Cancellation create() {
        return new Cancellation();
    }

    /**
     * Fires the signal; later calls change nothing (the first reason stays).
     *
     * @param why what stopped the work, e.g. {@code "leader election lost"}
     */
    public void cancel(String why) {
        Objects.requireNonNull(why, "why");
        List<Runnable> toRun;
        synchronized (lock) {
            if (reason != null) {
                return;
            }
            reason = why;
            toRun = List.copyOf(listeners);
            listeners.clear();
        }
        toRun.forEach(Cancellation::runQuietly);
    }

    /** Whether the signal fired. */
    public boolean isCancelled() {
        return reason != null;
    }

    /** Why the signal fired; empty while it has not. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * Returns normally while the signal has not fired.
     *
     * @throws CancellationException once it fired, with its reason as the message
     */
    public void throwIfCancelled() {
        String why = reason;
        if (why != null) {
            throw new CancellationException(why);
        }
    }

    /**
     * Runs {@code listener} when the signal fires (at once if it has). A listener that throws is
     * logged and does not stop the others.
     *
     * @param listener what to run; should be quick and must not block
     */
    public void onCancel(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (lock) {
            if (reason == null) {
                listeners.add(listener);
                return;
            }
        }
        runQuietly(listener);
    }

    private static void runQuietly(Runnable listener) {
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.error("a cancellation listener threw", e);
        }
    }

    @Override
    public String toString() {
        String why = reason;
        return why == null ? "Cancellation[not fired]" : "Cancellation[" + why + "]";
    }
}
