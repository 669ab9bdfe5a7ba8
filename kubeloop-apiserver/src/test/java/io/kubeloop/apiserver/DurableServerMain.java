package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.storage.WalJournal;
import io.kubeloop.apiserver.internal.storage.WalJournalOptions;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The server process {@link SigkillDurabilityTest} and {@link WatchAcrossSigkillTest} kill: starts an
 * {@link EmbeddedApiServer} on the data directory {@code args[0]} and the port {@code args[2]} (0: a free
 * one), with checkpoints every 200 records so that they happen under the
 * test's load, writes its kubeconfig to {@code args[1]}, prints {@code READY <kubeconfig>} and serves until
 * killed.
 */
public final class DurableServerMain {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    private DurableServerMain() {}

    public static void main(String[] args) {
        Path dataDir = Path.of(args[0]);
        Path kubeconfig = Path.of(args[1]);
        ServerOptions options = ServerOptions.defaults()
                .withPort(Integer.parseInt(args[2]))
                .withDataDir(dataDir)
                .withJournalFactory(dir -> WalJournal.open(
                        new DataDirectory(dir).wal(),
                        WalJournalOptions.defaults().withCheckpointEvery(200, 1 << 20)));
        EmbeddedApiServer server = EmbeddedApiServer.start(options);
        server.writeKubeconfig(kubeconfig);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.US_ASCII);
        out.println("READY " + kubeconfig);
        server.awaitStopped();
    }

    /** Starts this class as a child JVM; its stderr goes to {@code stderr}. */
    static Process launch(Path dataDir, Path kubeconfig, Path stderr, int port) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xmx256m",
                        "-Xshare:auto",
                        "-cp",
                        System.getProperty("java.class.path"),
                        DurableServerMain.class.getName(),
                        dataDir.toString(),
                        kubeconfig.toString(),
                        Integer.toString(port))
                .redirectError(stderr.toFile())
                .start();
    }

    /** Waits for the READY line of a {@link #launch}ed server and returns the kubeconfig it names. */
    static Path awaitReady(Process server, Path stderr, String context) throws Exception {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
        String[] line = new String[1];
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                line[0] = out.readLine();
            } catch (IOException e) {
                line[0] = null;
            }
            ready.countDown();
        });
        assertThat(ready.await(START_LIMIT.toSeconds(), TimeUnit.SECONDS))
                .as("%s: server started; stderr: %s", context, read(stderr))
                .isTrue();
        reader.join();
        assertThat(line[0])
                .as("%s: server's first line; stderr: %s", context, read(stderr))
                .startsWith("READY ");
        return Path.of(line[0].substring("READY ".length()));
    }

    /** The content of {@code file}, empty when it does not exist. */
    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
