package io.kubeloop.peers;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Another Java client's informer, running in a child JVM against a server named by a kubeconfig, and
 * the {@link InformerEvents} lines it printed so far. Tests start one, wait for {@code SYNCED}, make
 * changes with their own client and {@linkplain #awaitLine wait} for the lines the peer's handler
 * prints.
 *
 * <p>Use with try-with-resources: {@link #close()} closes the child's stdin, which stops it, and
 * waits for it (killing it after 10 s).
 *
 * <p><b>Thread safety.</b> Thread-safe; the lines are guarded by one lock.
 */
public final class InformerPeer implements AutoCloseable {

    private final String name;
    private final Process process;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Every stdout line of the child, in order. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final List<String> lines = new ArrayList<>();
    /** The child's stderr, for failure messages. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final List<String> errors = new ArrayList<>();
    /** Set when the child's stdout ended. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private boolean ended;

    private InformerPeer(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread.ofVirtual().name(name + "-stdout").start(() -> pump(process.getInputStream(), true));
        Thread.ofVirtual().name(name + "-stderr").start(() -> pump(process.getErrorStream(), false));
    }

    /**
     * fabric8 kubernetes-client's informer for the ConfigMaps in {@code namespace}.
     *
     * @param httpWatches watch over chunked HTTP instead of fabric8's default, WebSocket
     */
    public static InformerPeer fabric8ConfigMaps(Path kubeconfig, String namespace, boolean httpWatches) {
        List<String> args = new ArrayList<>(List.of(kubeconfig.toString(), namespace));
        if (httpWatches) {
            args.add("--http-watches");
        }
        return start("fabric8" + (httpWatches ? "-http" : "-ws"), Fabric8InformerMain.class, args);
    }

    /** kubernetes-client/java's informer for the ConfigMaps in {@code namespace}. */
    public static InformerPeer kubernetesClientJavaConfigMaps(Path kubeconfig, String namespace) {
        return start("client-java", KubernetesClientInformerMain.class, List.of(kubeconfig.toString(), namespace));
    }

    private static InformerPeer start(String name, Class<?> main, List<String> args) {
        try {
            return new InformerPeer(name, new ProcessBuilder(PeerJvm.command(main.getName(), args)).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start peer " + name + ": " + e.getMessage(), e);
        }
    }

    /** The peer's name, e.g. {@code fabric8-ws}. */
    public String name() {
        return name;
    }

    /** The lines printed so far. */
    public List<String> lines() {
        lock.lock();
        try {
            return List.copyOf(lines);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the peer has printed {@code expected} (anywhere in its output so far).
     *
     * @throws IllegalStateException naming the peer, the line and everything it printed, when the line
     *     does not come within {@code timeout} or the peer exits first
     */
    public void awaitLine(String expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (!lines.contains(expected)) {
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    throw new IllegalStateException("peer " + name + (ended ? " ended" : " timed out after " + timeout)
                            + " without printing '" + expected + "'; stdout: " + lines + "; stderr (last lines): "
                            + errors.subList(Math.max(0, errors.size() - 20), errors.size()));
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for peer " + name, e);
        } finally {
            lock.unlock();
        }
    }

    private void pump(InputStream in, boolean stdout) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                add(stdout, line);
            }
        } catch (IOException e) {
            add(false, "(reading the peer's output failed: " + e + ")");
        } finally {
            if (stdout) {
                lock.lock();
                try {
                    ended = true;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Appends {@code line} to {@link #lines} ({@code stdout}) or {@link #errors}, under the lock. */
    private void add(boolean stdout, String line) {
        lock.lock();
        try {
            (stdout ? lines : errors).add(line);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
