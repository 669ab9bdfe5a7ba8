package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Stopping a server that keeps an audit log while clients are busy: the watches it ends on the way out are
 * audited (their requests finish before the log closes), the stop succeeds even when a client stopped reading
 * its watch (it is cut off after the grace period), and the file is whole JSON lines, one audit Event each.
 */
class AuditOnShutdownTest {

    @TempDir
    Path dir;

    /** Creates ConfigMaps in {@code namespace} on 4 threads until {@code stop} is set or the server is gone. */
    private static List<Thread> writers(RawHttp http, String namespace, AtomicBoolean stop) {
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            writers.add(Thread.ofVirtual().start(() -> {
                for (int n = 0; !stop.get(); n++) {
                    try {
                        http.createConfigMap(namespace, "cm-" + id + "-" + n, "{}");
                    } catch (RuntimeException serverGone) {
                        return;
                    }
                }
            }));
        }
        return writers;
    }

    /** Every line of {@code audit}, each checked to be a whole audit Event. */
    private static List<JsonNode> events(Path audit) throws Exception {
        assertThat(Files.readString(audit)).endsWith("\n");
        List<JsonNode> events = new ArrayList<>();
        for (String line : Files.readAllLines(audit)) {
            JsonNode event = KubeJson.mapper().readTree(line);
            assertThat(event.path("kind").asString()).as(line).isEqualTo("Event");
            assertThat(event.path("stage").asString()).as(line).isEqualTo("ResponseComplete");
            events.add(event);
        }
        return events;
    }

    @Test
    void stoppingUnderTrafficAuditsTheEndedWatchesAndLeavesOnlyWholeLines() throws Exception {
        Path audit = dir.resolve("audit.log");
        EmbeddedApiServer server = EmbeddedApiServer.start(
                ServerOptions.defaults().withCluster(SimulatedCluster.off()).withAuditLog(audit));
        RawHttp http = new RawHttp(server);
        String quiet = http.newNamespace("quiet");
        List<RawHttp.Lines> watches = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            watches.add(http.watch("/api/v1/namespaces/" + quiet + "/configmaps?watch=true&w=" + i));
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = writers(http, "default", stop);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.readAllLines(audit).size() > 40);

        server.close();
        stop.set(true);
        for (Thread w : writers) {
            w.join();
        }
        watches.forEach(RawHttp.Lines::close);

        List<String> watched = events(audit).stream()
                .filter(e -> e.path("verb").asString().equals("watch"))
                .map(e -> e.path("requestURI").asString())
                .toList();
        assertThat(watched).as("every watch the stop ended").hasSize(8);
    }

    @Test
    void aClientThatStoppedReadingItsWatchIsCutOffAndTheStopSucceeds() throws Exception {
        Path audit = dir.resolve("audit.log");
        EmbeddedApiServer server = EmbeddedApiServer.start(
                ServerOptions.defaults().withCluster(SimulatedCluster.off()).withAuditLog(audit));
        RawHttp http = new RawHttp(server);
        String busy = http.newNamespace("busy");
        try (RawHttp.Lines unread = http.watch("/api/v1/namespaces/" + busy + "/configmaps?watch=true")) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = writers(http, busy, stop);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Files.readAllLines(audit).size() > 200);

            server.close(); // returns normally: the unread watch's connection is closed, not waited for
            stop.set(true);
            for (Thread w : writers) {
                w.join();
            }
        }
        assertThat(events(audit)).isNotEmpty();
    }
}
