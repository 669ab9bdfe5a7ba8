package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.storage.WalJournal;
import io.kubeloop.apiserver.internal.storage.WalJournalOptions;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The server process {@link SigkillDurabilityTest} kills: starts an {@link EmbeddedApiServer} on the data
 * directory {@code args[0]} and port 0, with checkpoints every 200 records so that they happen under the
 * test's load, writes its kubeconfig to {@code args[1]}, prints {@code READY <kubeconfig>} and serves until
 * killed.
 */
public final class DurableServerMain {

    private DurableServerMain() {}

    public static void main(String[] args) {
        Path dataDir = Path.of(args[0]);
        Path kubeconfig = Path.of(args[1]);
        ServerOptions options = ServerOptions.defaults()
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
}
