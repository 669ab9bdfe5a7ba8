package io.kubeloop.cli;

import io.kubeloop.api.errors.Causes;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The life of the server run by {@code kubeloop server} and {@code kubeloop demo}: started once,
 * stopped exactly once — by the main thread after SIGINT/SIGTERM or a failure, or by a JVM shutdown
 * hook when the process ends any other way (System.exit elsewhere, SIGHUP). Stopping closes the server,
 * then runs what was registered with {@link #onStop} (e.g. removing a temporary kubeconfig), so that runs
 * on every way out but {@code kill -9}.
 *
 * <p>SIGINT and SIGTERM are caught ({@link StopSignal}) so that the command can stop the server,
 * print its last line and exit 0. Where signals cannot be caught, the shutdown hook still closes the
 * server. A server that closes itself because its write-ahead log failed (disk full, I/O error) ends
 * the wait for a signal too, and {@link #failure()} then says why, so the command can exit non-zero.
 *
 * <p><b>Thread safety.</b> {@link #stop()} may be called from any thread, any number of times; only
 * the first call closes the server and runs the stop actions. {@link #onStop} may be called from any
 * thread before the stop.
 */
final class ServerLifetime {

    private final EmbeddedApiServer server;
    private final StopSignal stopSignal;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile RuntimeException failure;
    private final Thread hook;
    /** Run after the server closed, last registered first. */
    private final Deque<Runnable> onStop = new ConcurrentLinkedDeque<>();

    private ServerLifetime(EmbeddedApiServer server, StopSignal stopSignal) {
        this.server = server;
        this.stopSignal = stopSignal;
        this.hook = Thread.ofPlatform().name("kubeloop-server-shutdown").unstarted(this::stop);
    }

    /**
     * Starts the server and installs the signal handlers and the shutdown hook.
     *
     * @throws IllegalStateException with a one-line message when the server cannot start (port in
     *     use, data directory unusable)
     */
    static ServerLifetime start(ServerOptions options) {
        EmbeddedApiServer server;
        try {
            server = EmbeddedApiServer.start(options);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("cannot start the API server: " + firstLine(e.getMessage()), e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(rootMessage(e), e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start the API server: " + rootMessage(e), e);
        }
        ServerLifetime lifetime = new ServerLifetime(server, StopSignal.install());
        Runtime.getRuntime().addShutdownHook(lifetime.hook);
        Thread.ofVirtual()
                .name("kubeloop-server-stopped")
                .start(() -> server.awaitStopped().ifPresent(f -> {
                    lifetime.failure = f; // the server closed itself: stop waiting for a signal
                    lifetime.stopSignal.trigger();
                }));
        return lifetime;
    }

    EmbeddedApiServer server() {
        return server;
    }

    /** The write-ahead-log failure that made the server close itself, if it did. */
    Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Blocks until SIGINT or SIGTERM arrives, the server closes itself after a failure, or the thread is interrupted. */
    void awaitStopSignal() {
        stopSignal.await();
    }

    /** Whether SIGINT or SIGTERM arrived, or the calling thread was interrupted (which a signal's wait ends on too). */
    boolean stopRequested() {
        return stopSignal.requested() || Thread.currentThread().isInterrupted();
    }

    /**
     * Runs {@code action} when this lifetime stops, after the server closed — at once if it has stopped
     * already. An action that fails does not keep the others from running.
     */
    void onStop(Runnable action) {
        onStop.push(action);
        if (stopped.get()) {
            runStopActions();
        }
    }

    /**
     * Closes the server (watches ended, data flushed) unless it is already closed, then runs the stop actions.
     * The calling thread's interrupt flag (set when it was interrupted instead of signalled) is cleared while
     * the server closes, so the close runs to its end, and set again afterwards.
     */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it will find the server already closed
            }
        }
        boolean interrupted =
                Thread.interrupted(); // an interrupt ends the wait for a signal; it must not cut the close short
        try {
            server.close();
        } finally {
            runStopActions();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void runStopActions() {
        for (Runnable action = onStop.poll(); action != null; action = onStop.poll()) {
            try {
                action.run();
            } catch (RuntimeException e) {
                // best effort on the way out: the remaining actions still run
            }
        }
    }

    /** The exception's message, plus its root cause's (e.g. "Address already in use") when that adds something. */
    private static String rootMessage(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable root = Causes.root(e);
        if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
            message = message + " (" + root.getMessage() + ")";
        }
        return firstLine(message);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse(s);
    }
}
