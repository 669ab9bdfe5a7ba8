package io.kubeloop.cli;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The life of the server run by {@code kubeloop server}: started once, stopped exactly once — by
 * the main thread after SIGINT/SIGTERM, or by a JVM shutdown hook when the process ends any other
 * way (System.exit elsewhere, SIGHUP).
 *
 * <p>SIGINT and SIGTERM are caught (where the JVM lets us: {@code sun.misc.Signal}) so that the
 * command can stop the server, print its last line and exit 0 — a plain shutdown hook would leave
 * the JVM's exit status at 128+signal. Where signals cannot be caught, the shutdown hook still
 * closes the server.
 *
 * <p><b>Thread safety.</b> {@link #stop()} may be called from any thread, any number of times; only
 * the first call closes the server.
 */
final class ServerLifetime {

    private final EmbeddedApiServer server;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread hook;

    private ServerLifetime(EmbeddedApiServer server) {
        this.server = server;
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
        ServerLifetime lifetime = new ServerLifetime(server);
        Runtime.getRuntime().addShutdownHook(lifetime.hook);
        lifetime.catchSignal("INT");
        lifetime.catchSignal("TERM");
        return lifetime;
    }

    EmbeddedApiServer server() {
        return server;
    }

    /** Blocks until SIGINT or SIGTERM arrives (or the thread is interrupted). */
    void awaitStopSignal() {
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the server (watches ended, data flushed) unless it is already closed. */
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
        server.close();
    }

    private void catchSignal(String name) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> stopRequested.countDown());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // the JVM reserves this signal (e.g. -Xrs): the shutdown hook still closes the server
        }
    }

    /** The exception's message, plus its root cause's (e.g. "Address already in use") when that adds something. */
    private static String rootMessage(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
            message = message + " (" + root.getMessage() + ")";
        }
        return firstLine(message);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse(s);
    }
}
