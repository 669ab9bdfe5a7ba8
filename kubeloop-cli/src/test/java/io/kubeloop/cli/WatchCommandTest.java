package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.faults.Fault;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop watch} against an embedded API server reached through a kubeconfig. */
@Timeout(60)
class WatchCommandTest {

    @TempDir
    Path dir;

    private static DynamicObject configMap(String name, String value) {
        return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\"},\"data\":{\"k\":\"" + value + "\"}}");
    }

    @Test
    void itPrintsTheListedObjectsThenEveryChangeUntilStopped() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            var cms = client.resource("configmaps").inNamespace("default");
            cms.create(configMap("before", "1"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform()
                    .start(() -> exit.set(Main.run(
                            new PrintWriter(out),
                            new PrintWriter(err),
                            "watch",
                            "cm",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--cache-dir",
                            dir.resolve("cache").toString())));
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("default/before"));

            cms.create(configMap("hello", "1"));
            cms.update(cms.get("hello").edit(n -> n.putObject("data").put("k", "2")));
            cms.delete("hello");
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("DELETED   default/hello"));

            command.interrupt(); // what SIGINT does to its wait
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            assertThat(out.toString()
                            .lines()
                            .map(l -> l.replaceAll("\\s+\\d+$", "").strip())
                            .toList())
                    .containsExactly(
                            "EVENT     OBJECT                                             RESOURCEVERSION",
                            "ADDED     default/before",
                            "ADDED     default/hello",
                            "MODIFIED  default/hello",
                            "DELETED   default/hello");
        }
    }

    @Test
    void aWatchThatWentSilentIsResumedFromTheLastVersionSeenAndNothingIsLostOrRepeated() throws Exception {
        AtomicInteger watches = new AtomicInteger();
        try (EmbeddedApiServer server =
                        EmbeddedApiServer.start(ServerOptions.defaults().withBookmarkInterval(Duration.ofMillis(500)));
                FaultInjectingProxy proxy = FaultInjectingProxy.start(
                        server,
                        request -> request.isWatch() && watches.incrementAndGet() == 1
                                ? new Fault.Blackhole(0)
                                : new Fault.Pass())) {
            Path kubeconfig = proxy.writeKubeconfig(dir.resolve("kubeconfig"));
            var cms = server.client().resource("configmaps").inNamespace("default");
            cms.create(configMap("before", "1"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform()
                    .start(() -> exit.set(Main.run(
                            new PrintWriter(out),
                            new PrintWriter(err),
                            "watch",
                            "cm",
                            "--idle-timeout",
                            "2",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--cache-dir",
                            dir.resolve("cache").toString())));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> out.toString().contains("default/before") && watches.get() == 1);

            cms.create(configMap("during-the-silence", "1")); // the first watch never delivers it
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> out.toString().contains("ADDED     default/during-the-silence"));
            assertThat(watches.get()).as("resumed after the 2 s idle timeout").isGreaterThanOrEqualTo(2);
            assertThat(proxy.injected()).containsEntry("blackhole", 1L);

            command.interrupt();
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            assertThat(out.toString()
                            .lines()
                            .map(l -> l.replaceAll("\\s+\\d+$", "").strip())
                            .toList())
                    .containsExactly(
                            "EVENT     OBJECT                                             RESOURCEVERSION",
                            "ADDED     default/before",
                            "ADDED     default/during-the-silence");
        }
    }

    @Test
    void jsonOutputIsOneEventPerLine() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            server.client().resource("configmaps").inNamespace("default").create(configMap("one", "1"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform()
                    .start(() -> exit.set(Main.run(
                            new PrintWriter(out),
                            new PrintWriter(err),
                            "watch",
                            "configmaps",
                            "-A",
                            "-o",
                            "json",
                            "--kubeconfig",
                            kubeconfig.toString(),
                            "--cache-dir",
                            dir.resolve("cache").toString())));
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("\"one\""));
            command.interrupt();
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            String line = out.toString()
                    .lines()
                    .filter(l -> l.contains("\"one\""))
                    .findFirst()
                    .orElseThrow();
            DynamicObject event = DynamicObject.parse(line);
            assertThat(event.node().path("type").asString()).isEqualTo("ADDED");
            assertThat(event.node().path("object").path("data").path("k").asString())
                    .isEqualTo("1");
        }
    }

    @Test
    void anUnknownResourceIsOneLineAndExitOne() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = Main.run(
                    new PrintWriter(out),
                    new PrintWriter(err),
                    "watch",
                    "nosuchthings",
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--cache-dir",
                    dir.resolve("cache").toString());
            assertThat(exit).isEqualTo(1);
            assertThat(err.toString().strip())
                    .doesNotContain("\n")
                    .startsWith("error: ")
                    .contains("nosuchthings");
        }
    }
}
