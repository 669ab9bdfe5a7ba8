package io.kubeloop.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real, independent peer server running in a child JVM, for tests. Its class path is the one
 * Maven wrote to {@code kubeloop-peers/target/peer.classpath}, located through the system property
 * {@code kubeloop.peers.classpath} (set by the parent pom's surefire configuration), so that the
 * peer's libraries (fabric8 7.x on Jackson 2) never meet kubeloop's on one class path.
 *
 * <p>Use with try-with-resources; {@link #close()} stops the child and waits for it.
 *
 * @param url the base URL the peer listens on, e.g. {@code https://127.0.0.1:40123}
 */
public record PeerProcess(URI url, Process process) implements AutoCloseable {

    /** The system property naming the peer class-path file. */
    public static final String CLASSPATH_PROPERTY = "kubeloop.peers.classpath";

    /**
     * Starts fabric8's KubernetesMockServer in CRUD mode over HTTPS (a self-signed certificate:
     * connect with TLS verification off).
     *
     * @param crds custom resources to serve, each {@code group/version/plural/Kind/Namespaced|Cluster}
     */
    public static PeerProcess startFabric8Mock(String... crds) {
        List<String> args = new ArrayList<>();
        for (String crd : crds) {
            args.add("--crd");
            args.add(crd);
        }
        return start(Fabric8MockServerMain.class.getName(), args, Duration.ofSeconds(60));
    }

    /** True when the peer class path is known and present (it is in Maven builds). */
    public static boolean available() {
        String file = System.getProperty(CLASSPATH_PROPERTY);
        return file != null && Files.isRegularFile(Path.of(file));
    }

    private static PeerProcess start(String mainClass, List<String> args, Duration timeout) {
        try {
            List<String> command = PeerJvm.command(mainClass, args);
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
                try {
                    String line;
                    while ((line = out.readLine()) != null) {
                        if (line.startsWith("READY ")) {
                            return line.substring("READY ".length()).trim();
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            String url;
            try {
                url = ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                p.destroyForcibly();
                throw new IllegalStateException("peer " + mainClass + " did not start: " + e, e);
            }
            if (url == null) {
                p.destroyForcibly();
                throw new IllegalStateException("peer " + mainClass + " exited with " + p.waitFor());
            }
            return new PeerProcess(new URI(url), p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + mainClass, e);
        }
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
