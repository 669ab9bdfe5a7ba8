package io.kubeloop.bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the API-server benchmark harness works end to end at toy sizes (seconds): both servers start
 * in child JVMs, every phase runs, every watcher is verified, and the report lands between its markers.
 * Not a measurement.
 */
class ServerBenchmarkSmokeTest {

    private static final String[] TINY = {
        "--creates",
        "20",
        "--objects",
        "30",
        "--watchers",
        "3",
        "--events",
        "10",
        "--warmup",
        "0",
        "--list-repeat",
        "1",
        "--concurrency",
        "2"
    };

    @Test
    void kubeloopRunsEveryPhaseOverBothTransportsAndVerifiesEveryWatcher() throws Exception {
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        ContenderResult r = ServerBenchmark.run(ServerContender.KUBELOOP, ServerBenchmark.Options.parse(TINY));

        assertThat(r.creates().count()).isEqualTo(20);
        assertThat(r.load().count()).isEqualTo(10);
        assertThat(r.lists()).singleElement().satisfies(l -> {
            assertThat(l.items()).isEqualTo(30);
            assertThat(l.bytes()).isPositive();
        });
        assertThat(r.fanOuts())
                .extracting(FanOutResult::transport)
                .containsExactly(Transport.WEBSOCKET, Transport.HTTP);
        assertThat(r.fanOuts())
                .allSatisfy(f ->
                        assertThat(f.complete()).as(String.valueOf(f.problem())).isTrue());
    }

    @Test
    void fabric8MockRunsOverWebSocketAndTheReportReplacesItsBlock(@TempDir Path dir) throws Exception {
        assumeTrue(
                Files.isRegularFile(Path.of(System.getProperty("kubeloop.peers.classpath", "-"))),
                "kubeloop-peers' class path (set by the Maven build)");
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        ContenderResult r = ServerBenchmark.run(ServerContender.FABRIC8, ServerBenchmark.Options.parse(TINY));

        assertThat(r.lists()).singleElement().extracting(ListResult::items).isEqualTo(30);
        assertThat(r.fanOuts()).singleElement().satisfies(f -> {
            assertThat(f.transport()).isEqualTo(Transport.WEBSOCKET);
            assertThat(f.complete()).as(String.valueOf(f.problem())).isTrue();
        });

        Path md = dir.resolve("BENCHMARKS.md");
        Files.writeString(
                md, "# Benchmarks\n\nbefore\n" + ServerReport.BEGIN + "\nold\n" + ServerReport.END + "\nafter\n");
        ServerReport.writeInto(md, ServerReport.markdown(List.of(r), "header\n"));
        String text = Files.readString(md);
        assertThat(text)
                .startsWith("# Benchmarks\n\nbefore\n")
                .endsWith("\nafter\n")
                .doesNotContain("old")
                .contains("| fabric8 |", "deliveries/s");
    }
}
