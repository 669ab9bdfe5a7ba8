package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.testing.faults.ConnectionFault;
import io.kubeloop.testing.faults.ConnectionPlan;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Leader election under a network partition. Two managers, each with its own identity (a token-file
 * user), run one controller that keeps writing to a ConfigMap through the manager's client while it
 * leads. Manager {@code a} leads and reaches the server through the fault proxy; then the proxy freezes
 * every connection of {@code a} (nothing answered, nothing closed) and any new one. {@code a} stops
 * (leader election lost) by its renew deadline, before its lease can run out; {@code b}, which reaches
 * the server directly, leads only after that and writes. The server's audit log, the record of every
 * write with its user, shows each write of {@code a} finished before the first write of {@code b}
 * began — never two leaders writing at once — also after the partition heals.
 */
@Timeout(120)
class LeaderPartitionIntegrationTest extends FaultProxyTestBase {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RENEW = Duration.ofSeconds(2);
    private static final Duration RETRY = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private final List<Manager> managers = new ArrayList<>();
    private KubeClient direct;

    @Override
    protected ServerOptions serverOptions() {
        try {
            Path tokens = dir.resolve("tokens.csv");
            Files.writeString(
                    tokens, "token-a,manager-a,uid-a,\"system:masters\"\ntoken-b,manager-b,uid-b,\"system:masters\"\n");
            return ServerOptions.defaults().withTokenAuthFile(tokens).withAuditLog(dir.resolve("audit.log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterEach
    void closeManagers() {
        managers.forEach(Manager::close);
        if (direct != null) {
            direct.close();
        }
    }

    /** A manager whose one controller patches the ConfigMap {@code ticker} every 100 ms while it leads. */
    private Manager manager(String id, KubeClient through) {
        Manager m = Manager.create(
                through,
                ManagerOptions.defaults()
                        .withLeaderElection(LeaderElectionOptions.defaults("default", "partition-test", id)
                                .withTimings(LEASE, RENEW, RETRY)));
        AtomicInteger n = new AtomicInteger();
        m.add(ControllerBuilder.forResource(ConfigMap.class)
                .build(m.informers(), (Request r, ReconcileContext context) -> {
                    ConfigMap named = new ConfigMapBuilder()
                            .withNewMetadata()
                            .withNamespace(r.namespace())
                            .withName(r.name())
                            .endMetadata()
                            .build();
                    m.client()
                            .patch(
                                    named,
                                    PatchType.MERGE,
                                    Map.of("data", Map.of("writer", id, "n", Integer.toString(n.incrementAndGet()))));
                    return Result.requeueAfter(Duration.ofMillis(100));
                }));
        managers.add(m);
        return m;
    }

    @Test
    void aPartitionedLeaderStopsBeforeItsLeaseCanPassAndNoTwoLeadersEverWrite() throws Exception {
        client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("ticker")
                        .endMetadata()
                        .build());
        proxy = FaultInjectingProxy.startRelay(server, ConnectionPlan.none());
        throughProxy = KubeClient.create(proxy.clientConfig("token-a"), ClientOptions.defaults());
        ClientConfig admin = server.clientConfig();
        direct = KubeClient.create(
                new ClientConfig(
                        admin.server(),
                        admin.sslContext(),
                        admin.tlsServerName(),
                        AuthProvider.bearer("token-b"),
                        admin.namespace(),
                        admin.proxy(),
                        admin.source()),
                ClientOptions.defaults());

        Manager a = manager("a", throughProxy);
        a.start();
        await().atMost(Duration.ofSeconds(20)).until(a::isLeader);
        Manager b = manager("b", direct);
        b.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> writes("manager-a").size() >= 5);
        assertThat(b.isLeader()).isFalse();

        AtomicLong aStopped = new AtomicLong();
        AtomicLong bLeads = new AtomicLong();
        Thread watcher = Thread.ofVirtual().start(() -> {
            while (bLeads.get() == 0 && !Thread.currentThread().isInterrupted()) {
                if (aStopped.get() == 0 && !a.isLeader()) {
                    aStopped.set(System.nanoTime());
                }
                if (b.isLeader()) {
                    bLeads.set(System.nanoTime());
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        proxy.connectionPlan(c -> new ConnectionFault.Freeze(0, Duration.ZERO)); // new connections too
        proxy.freezeAll();

        assertThat(a.awaitTermination(Duration.ofSeconds(20))).isTrue();
        assertThat(a.failure()).hasValueSatisfying(f -> assertThat(f).hasMessage("leader election lost"));
        await().atMost(Duration.ofSeconds(20)).until(() -> bLeads.get() != 0);
        watcher.join();
        assertThat(aStopped.get()).as("a stopped leading").isNotZero();
        assertThat(aStopped.get()).as("a stopped before b led").isLessThan(bLeads.get());
        await().atMost(Duration.ofSeconds(20)).until(() -> writes("manager-b").size() >= 5);

        proxy.connectionPlan(ConnectionPlan.none()); // the partition heals
        Thread.sleep(RENEW.toMillis());

        List<Write> byA = writes("manager-a");
        List<Write> byB = writes("manager-b");
        Instant lastOfA =
                byA.stream().map(Write::completed).max(Instant::compareTo).orElseThrow();
        Instant firstOfB =
                byB.stream().map(Write::received).min(Instant::compareTo).orElseThrow();
        assertThat(lastOfA).as("a's last write ends before b's first begins").isBefore(firstOfB);
    }

    /** One write the audit log recorded: when the server received it and when it answered. */
    private record Write(Instant received, Instant completed) {}

    /** The successful PATCHes of the ConfigMap {@code ticker} by {@code user}, from the server's audit log. */
    private List<Write> writes(String user) throws IOException {
        List<Write> writes = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("audit.log"))) {
            JsonNode e = KubeJson.mapper().readTree(line);
            if (e.path("user").path("username").asString().equals(user)
                    && e.path("verb").asString().equals("patch")
                    && e.path("objectRef").path("name").asString().equals("ticker")
                    && e.path("responseStatus").path("code").asInt() == 200) {
                writes.add(new Write(
                        Instant.parse(e.path("requestReceivedTimestamp").asString()),
                        Instant.parse(e.path("stageTimestamp").asString())));
            }
        }
        return writes;
    }
}
