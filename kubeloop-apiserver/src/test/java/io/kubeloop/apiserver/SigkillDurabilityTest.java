package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.config.ClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durability test of the API server: a server process ({@link DurableServerMain}) on a data directory
 * takes ConfigMap creates and updates from 16 concurrent writers, is killed with SIGKILL at a random
 * moment, and is restarted on the same directory — several rounds. After every restart each acknowledged
 * write must be served: the ConfigMap holds the acknowledged content at the acknowledged resourceVersion,
 * or a later version of it (a write that reached the disk but whose answer the kill cut off), and every
 * new resourceVersion is above every one handed out before.
 */
class SigkillDurabilityTest {

    /** Kill-and-restart rounds: 3 in CI; {@code -Dkubeloop.durability.rounds=N} (tools/reliability) runs more. */
    private static final int ROUNDS = Integer.getInteger("kubeloop.durability.rounds", 3);

    private static final int WRITERS = 16;
    private static final int NAMES_PER_WRITER = 6;

    @TempDir
    Path tmp;

    /** The newest acknowledged write of one ConfigMap: its counter and resourceVersion. */
    private record Ack(long n, long rv) {}

    /** Per name, the newest acknowledged write; each name has one writer thread, so no races per name. */
    private final Map<String, Ack> acked = new ConcurrentHashMap<>();

    private final List<String> violations = new CopyOnWriteArrayList<>();

    @Test
    void everyAcknowledgedWriteSurvivesSigkillAtARandomMoment() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path dataDir = tmp.resolve("data");
        long floor = 0; // every resourceVersion the next server hands out must be above this
        int totalAcks = 0;
        for (int round = 1; round <= ROUNDS + 1; round++) {
            String context = "round " + round + " (seed " + seed + ")";
            Path stderr = tmp.resolve("server-" + round + ".err");
            long t0 = System.nanoTime();
            Process server = DurableServerMain.launch(dataDir, tmp.resolve("kubeconfig-" + round), stderr, 0);
            try (KubeClient client = KubeClient.create(
                    ClientConfig.fromKubeconfig(DurableServerMain.awaitReady(server, stderr, context)),
                    ClientOptions.builder()
                            .rateLimitingEnabled(false)
                            .maxRetries(0)
                            .build())) {
                ResourceClient<DynamicObject> cms =
                        client.resource("configmaps").inNamespace("default");
                long started = System.nanoTime();
                long served = verify(cms, context);
                assertThat(served)
                        .as("%s: the recovered resourceVersion", context)
                        .isGreaterThanOrEqualTo(floor);
                floor = served;
                if (round > ROUNDS) {
                    break;
                }
                int killAfter = 10 + random.nextInt(round == 1 ? 100 : 300);
                AtomicInteger acks = new AtomicInteger();
                CountDownLatch enough = new CountDownLatch(1);
                AtomicLong maxRv = new AtomicLong(floor);
                List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    long above = floor;
                    writers.add(Thread.ofVirtual()
                            .start(() -> write(cms, writer, above, maxRv, () -> {
                                if (acks.incrementAndGet() == killAfter) {
                                    enough.countDown();
                                }
                            })));
                }
                assertThat(enough.await(30, TimeUnit.SECONDS))
                        .as("%s: %d acks; stderr: %s", context, killAfter, DurableServerMain.read(stderr))
                        .isTrue();
                server.destroyForcibly(); // SIGKILL
                assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
                for (Thread t : writers) {
                    t.join(Duration.ofSeconds(15));
                }
                totalAcks += acks.get();
                System.out.printf(
                        "SigkillDurabilityTest %s: server ready in %d ms, killed after %d acks, %d ms of load%n",
                        context, (started - t0) / 1_000_000, acks.get(), (System.nanoTime() - started) / 1_000_000);
                floor = Math.max(floor, maxRv.get());
                assertThat(violations).as(context).isEmpty();
            } finally {
                server.destroyForcibly();
                server.waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertThat(violations).isEmpty();
        System.out.printf(
                "SigkillDurabilityTest: %d rounds, %d acknowledged writes of %d ConfigMaps all served "
                        + "after SIGKILL, last resourceVersion %d, seed %d%n",
                ROUNDS, totalAcks, acked.size(), floor, seed);
    }

    /**
     * One writer: refreshes its ConfigMaps from the server, then creates or updates them in turn until the
     * server goes away. Each write carries a counter one above the current one.
     */
    private void write(ResourceClient<DynamicObject> cms, int writer, long floor, AtomicLong maxRv, Runnable onAck) {
        Map<String, DynamicObject> current = new HashMap<>();
        try {
            for (int i = 0; i < NAMES_PER_WRITER; i++) {
                String name = "w" + writer + "-" + i;
                try {
                    current.put(name, cms.get(name)); // may hold a write whose answer the kill cut off
                } catch (NotFoundException absent) {
                    // never created, or its create was lost unacknowledged
                }
            }
            for (long step = 0; ; step++) {
                String name = "w" + writer + "-" + (step % NAMES_PER_WRITER);
                DynamicObject cur = current.get(name);
                long n = cur == null
                        ? 1
                        : Long.parseLong(cur.node().path("data").path("n").asString()) + 1;
                DynamicObject written;
                if (cur == null) {
                    written = cms.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                            + "\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"n\":\"" + n + "\"}}"));
                } else {
                    written = cms.update(cur.edit(o -> o.putObject("data").put("n", Long.toString(n))));
                }
                long rv = Long.parseLong(written.metadata().resourceVersion());
                if (rv <= floor) {
                    violations.add(name + " written at resourceVersion " + rv + ", not above " + floor);
                }
                maxRv.accumulateAndGet(rv, Math::max);
                acked.put(name, new Ack(n, rv));
                current.put(name, written);
                onAck.run();
            }
        } catch (ApiException e) {
            violations.add("writer " + writer + ": unexpected " + e);
        } catch (RuntimeException e) {
            // the server was killed: connection refused or reset, the write unacknowledged
        }
    }

    /** Checks every acknowledged write; returns the list's resourceVersion. */
    private long verify(ResourceClient<DynamicObject> cms, String context) {
        var list = cms.list(ListOptions.none());
        Map<String, DynamicObject> served = new HashMap<>();
        for (DynamicObject o : list.items()) {
            served.put(o.metadata().name(), o);
        }
        for (Map.Entry<String, Ack> e : acked.entrySet()) {
            DynamicObject o = served.get(e.getKey());
            assertThat(o)
                    .as("%s: acknowledged %s %s is served", context, e.getKey(), e.getValue())
                    .isNotNull();
            long n = Long.parseLong(o.node().path("data").path("n").asString());
            long rv = Long.parseLong(o.metadata().resourceVersion());
            assertThat(n)
                    .as("%s: %s holds the acknowledged content or a later one", context, e.getKey())
                    .isGreaterThanOrEqualTo(e.getValue().n());
            if (n == e.getValue().n()) {
                assertThat(rv)
                        .as("%s: %s at the acknowledged resourceVersion", context, e.getKey())
                        .isEqualTo(e.getValue().rv());
            } else {
                assertThat(rv)
                        .as("%s: %s, a later version", context, e.getKey())
                        .isGreaterThan(e.getValue().rv());
            }
        }
        return Long.parseLong(list.resourceVersion());
    }
}
