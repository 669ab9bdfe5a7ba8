package io.kubeloop.bench.server;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.io.IOException;

/**
 * Runs kubeloop's {@link EmbeddedApiServer} (in memory, HTTPS) in its own JVM for the
 * {@link ServerBenchmark}: prints {@code READY <url> <token>} on stdout once it listens and stops when
 * its stdin closes.
 *
 * <p>Arguments: {@code <watchBufferSize>}, the number of events buffered per watcher before the server
 * ends a watch that does not keep up (the benchmark sizes it to hold a whole fan-out, since fabric8's
 * mock buffers without bound). The system property {@code kubeloop.bench.listChunkBytes} (pass it with
 * {@code --child-flags}) sets the LIST chunk size, to compare streamed and one-piece LIST bodies.
 */
public final class KubeloopServerMain {

    private KubeloopServerMain() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: KubeloopServerMain <watchBufferSize>");
            System.exit(2);
        }
        int buffer = Integer.parseInt(args[0]);
        ServerOptions options = ServerOptions.defaults().withWatchBufferSize(buffer);
        String chunk = System.getProperty("kubeloop.bench.listChunkBytes");
        if (chunk != null) {
            options = options.withListChunkBytes(Integer.parseInt(chunk));
        }
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options)) {
            System.out.println("READY " + server.url() + " " + server.token());
            System.out.flush();
            while (System.in.read() >= 0) {
                // serve until the parent closes our stdin (or dies)
            }
        }
        System.exit(0);
    }
}
