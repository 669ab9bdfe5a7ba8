package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.leader.LeaderCallbacks;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.leader.LeaderElector;
import io.kubeloop.testing.faults.Fault;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/** Leader election on a Lease of the embedded API server: one leader at a time, take-over when the lease runs out or is released, and giving up when renewals fail or hang. */
@Timeout(120)
class LeaderElectionIntegrationTest extends EmbeddedServerTestBase {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(300);

    private final List<LeaderElector> electors = new ArrayList<>();

    @AfterEach
    void stopElectors() {
        electors.forEach(LeaderElector::stop);
    }

    /** Records the callbacks of one candidate. */
    static final class Recorder implements LeaderCallbacks {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onStartedLeading() {
            calls.add("started");
        }

        @Override
        public void onStoppedLeading() {
            calls.add("stopped");
        }

        @Override
        public void onNewLeader(String identity) {
            calls.add("leader " + identity);
        }
    }

    private LeaderElector candidate(String identity, boolean release, Recorder recorder) {
        LeaderElectionOptions config = LeaderElectionOptions.defaults("default", "demo-lock", identity)
                .withTimings(LEASE, RENEW, RETRY)
                .withReleaseOnStop(release);
        LeaderElector elector = new LeaderElector(client, config, recorder);
        electors.add(elector);
        return elector;
    }

    private JsonNode lease() {
        return client.resource(
                        new GroupVersionResource("coordination.k8s.io", "v1", "leases"),
                        ResourceScope.NAMESPACED,
                        DynamicObject.class)
                .inNamespace("default")
                .get("demo-lock")
                .node()
                .path("spec");
    }

    @Test
    void theSecondNeverLeadsWhileTheFirstRenewsAndTakesOverAfterTheLeaseRunsOut() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        LeaderElector a = candidate("a", false, ra);
        LeaderElector b = candidate("b", false, rb);
        Thread ta = a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        b.start();

        long until = System.nanoTime() + 2 * LEASE.toNanos();
        while (System.nanoTime() < until) {
            assertThat(b.isLeader()).as("b leads while a renews").isFalse();
            Thread.sleep(50);
        }
        assertThat(b.leader()).contains("a");
        assertThat(lease().path("leaseTransitions").asInt()).isZero();

        long stoppedAt = System.nanoTime();
        a.stop();
        ta.join(Duration.ofSeconds(10));
        assertThat(ra.calls).contains("started").endsWith("stopped");
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(b::isLeader);
        Duration takeOver = Duration.ofNanos(System.nanoTime() - stoppedAt);

        // LeaseDuration + 2 × 2.2 × RetryPeriod, plus a second for the test's own polling and the server
        assertThat(takeOver)
                .isLessThan(LEASE.plus(RETRY.multipliedBy(44).dividedBy(10)).plusSeconds(1));
        assertThat(lease().path("holderIdentity").asString()).isEqualTo("b");
        assertThat(lease().path("leaseTransitions").asInt())
                .as("one change of holder")
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> rb.calls.contains("started") && rb.calls.contains("leader b"));
    }

    @Test
    void releaseOnStopEmptiesTheHolderSoAnotherCandidateTakesOverAtOnce() throws Exception {
        LeaderElector a = candidate("a", true, new Recorder());
        Thread ta = a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

        a.stop();
        ta.join(Duration.ofSeconds(10));

        assertThat(lease().path("holderIdentity").asString()).isEmpty();
        assertThat(lease().path("leaseDurationSeconds").asInt()).isEqualTo(1);
        LeaderElector b = candidate("b", false, new Recorder());
        long start = System.nanoTime();
        b.start();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(b::isLeader);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("no wait for the old lease to run out")
                .isLessThan(LEASE);
    }

    @Test
    void aLeaderThatCannotRenewForTheRenewDeadlineStopsLeading() throws Exception {
        Recorder ra = new Recorder();
        LeaderElector a = candidate("a", false, ra);
        Thread ta = a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

        long cutAt = System.nanoTime();
        server.close(); // every renewal fails from now on

        assertThat(ta.join(Duration.ofSeconds(20))).as("run returned").isTrue();
        Duration held = Duration.ofNanos(System.nanoTime() - cutAt);
        assertThat(a.isLeader()).isFalse();
        assertThat(ra.calls).endsWith("stopped");
        assertThat(held).as("gave up after the renew deadline, not before").isGreaterThanOrEqualTo(RENEW.minus(RETRY));
        server = EmbeddedApiServer.start(); // for the teardown
    }

    /**
     * A leader whose Lease requests go unanswered (the proxy accepts them and forwards nothing, never
     * closing) stops leading by the renew deadline, not after the client's much longer request
     * timeout: otherwise it would still believe it leads when the lease runs out and another
     * candidate takes over.
     */
    @Test
    void aLeaderWhoseRenewalHangsStopsLeadingByTheRenewDeadline() throws Exception {
        AtomicBoolean silent = new AtomicBoolean();
        FaultPlan plan = request ->
                silent.get() && request.target().contains("/leases") ? new Fault.Blackhole(-1) : new Fault.Pass();
        try (FaultInjectingProxy proxy = FaultInjectingProxy.start(server, plan);
                KubeClient throughProxy = KubeClient.create(
                        proxy.clientConfig(),
                        ClientOptions.builder()
                                .maxRetries(0)
                                .requestTimeout(Duration.ofSeconds(60))
                                .build())) {
            Recorder ra = new Recorder();
            LeaderElector a = new LeaderElector(
                    throughProxy,
                    LeaderElectionOptions.defaults("default", "demo-lock", "a").withTimings(LEASE, RENEW, RETRY),
                    ra);
            electors.add(a);
            Thread ta = a.start();
            await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

            long silentAt = System.nanoTime();
            silent.set(true);

            assertThat(ta.join(Duration.ofSeconds(15)))
                    .as("run returned long before the 60 s request timeout")
                    .isTrue();
            Duration held = Duration.ofNanos(System.nanoTime() - silentAt);
            assertThat(a.isLeader()).isFalse();
            assertThat(ra.calls).endsWith("stopped");
            assertThat(held)
                    .as("stopped leading about a renew deadline after the silence")
                    .isLessThan(RENEW.plus(RETRY).plus(Duration.ofSeconds(2)));
            assertThat(proxy.injected()).containsKey("blackhole");
        }
    }

    /**
     * Faults three of every ten requests for Leases, as a sick API server or network would: a 503, a
     * cut connection and a 429. The elector's client retries nothing itself, so each reaches it.
     */
    static final class LeaseFaults implements FaultPlan {
        private final AtomicInteger requests = new AtomicInteger();

        @Override
        public Fault choose(ProxiedRequest request) {
            if (!request.target().contains("/leases")) {
                return new Fault.Pass();
            }
            return switch (requests.getAndIncrement() % 10) {
                case 1 -> new Fault.Reject(503, "ServiceUnavailable", Duration.ZERO);
                case 4 -> new Fault.Cut(0, Duration.ZERO);
                case 7 -> new Fault.Reject(429, "TooManyRequests", Duration.ZERO);
                default -> new Fault.Pass();
            };
        }
    }

    @Test
    void transientFailuresWhileAcquiringAndRenewingAreRetriedAndLeadershipHeld() throws Exception {
        try (FaultInjectingProxy proxy = FaultInjectingProxy.start(server, new LeaseFaults());
                KubeClient throughProxy = KubeClient.create(
                        proxy.clientConfig(),
                        ClientOptions.builder().maxRetries(0).build())) {
            Recorder ra = new Recorder();
            LeaderElector a = new LeaderElector(
                    throughProxy,
                    LeaderElectionOptions.defaults("default", "demo-lock", "a").withTimings(LEASE, RENEW, RETRY),
                    ra);
            electors.add(a);
            a.start();
            await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

            long until = System.nanoTime() + 4 * LEASE.toNanos();
            while (System.nanoTime() < until) {
                assertThat(a.isLeader())
                        .as("a keeps leading through the faults")
                        .isTrue();
                Thread.sleep(50);
            }
            assertThat(ra.calls).doesNotContain("stopped");
            assertThat(proxy.injected()).as("faults met").containsKeys("reject-503", "reject-429", "cut");
            assertThat(lease().path("holderIdentity").asString()).isEqualTo("a");
            a.stop();
        }
    }
}
