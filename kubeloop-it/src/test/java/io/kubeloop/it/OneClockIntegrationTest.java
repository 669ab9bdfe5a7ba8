package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.controller.leader.LeaderCallbacks;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.leader.LeaderElector;
import io.kubeloop.time.testing.FakeTicker;
import io.kubeloop.workqueue.RateLimiter;
import io.kubeloop.workqueue.RateLimitingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every timed behaviour of kubeloop runs on the ticker it is given: with one {@link FakeTicker}
 * handed to a reflector, an informer, a work queue and a leader elector, nothing times out, expires
 * or comes due until the test steps that ticker, and one step makes all of them happen.
 */
@Timeout(120)
class OneClockIntegrationTest extends EmbeddedServerTestBase {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final Duration RESYNC = Duration.ofSeconds(30);
    private static final Duration QUEUE_DELAY = Duration.ofSeconds(20);

    private final FakeTicker ticker = new FakeTicker();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final List<LeaderElector> electors = new ArrayList<>();
    private RateLimitingQueue<String> queue;

    @AfterEach
    void stopAll() {
        electors.forEach(LeaderElector::stop);
        informers.forEach(SharedIndexInformer::close);
        if (queue != null) {
            queue.shutDown();
        }
    }

    @Test
    void oneStepOfOneTickerEndsABackOffAResyncAQueueDelayAndALease() throws Exception {
        // an informer that has synced and resyncs every 30 s: its resync timer waits on the ticker
        FakeListerWatcher<DynamicObject> listed = FakeListerWatcher.dynamic();
        listed.add(configMap("a"));
        SharedIndexInformer<DynamicObject> resyncing = informer(listed, RESYNC);
        List<String> updates = new CopyOnWriteArrayList<>();
        resyncing.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(DynamicObject object, boolean isInInitialList) {}

            @Override
            public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
                updates.add(newObject.metadata().name());
            }

            @Override
            public void onDelete(DynamicObject object, boolean finalStateUnknown) {}
        });
        resyncing.start();
        await().atMost(WAIT).until(() -> resyncing.hasSynced() && listed.openWatches() == 1);
        ticker.awaitWaiters(1);

        // an informer whose first list failed: its reflector backs off (0.8–1.6 s) on the ticker
        FakeListerWatcher<DynamicObject> failing = FakeListerWatcher.dynamic();
        failing.add(configMap("b"));
        failing.failNextList(new IllegalStateException("the first list fails"));
        SharedIndexInformer<DynamicObject> backingOff = informer(failing, Duration.ZERO);
        backingOff.start();
        ticker.awaitSleeps(2); // the resync timer's sleep and the back-off
        ticker.awaitWaiters(2);

        // a work queue holding an item back for 20 s
        queue = RateLimitingQueue.create(
                RateLimiter.defaultControllerRateLimiter(ticker),
                WorkQueueOptions.builder().name("one-clock").ticker(ticker).build());
        queue.addAfter("delayed", QUEUE_DELAY);
        ticker.awaitWaiters(3);

        // a Lease held by "a", which stops renewing; "b" waits for it to run out
        LeaderElector a = elector("a");
        Thread ta = a.start();
        await().atMost(WAIT).until(a::isLeader);
        a.stop();
        ta.join();
        LeaderElector b = elector("b");
        b.start();
        await().atMost(WAIT).until(() -> b.leader().equals(Optional.of("a")));
        ticker.awaitWaiters(4);

        // nothing moves while the ticker stands still
        assertThat(updates).isEmpty();
        assertThat(backingOff.hasSynced()).isFalse();
        assertThat(failing.listRequests()).hasSize(1);
        assertThat(queue.len()).isZero();
        assertThat(b.isLeader()).isFalse();

        ticker.step(RESYNC);

        await().atMost(WAIT).until(() -> updates.contains("a"));
        await().atMost(WAIT).until(backingOff::hasSynced);
        assertThat(backingOff.indexer().list())
                .extracting(o -> o.metadata().name())
                .containsExactly("b");
        await().atMost(WAIT).until(() -> queue.len() == 1);
        assertThat(queue.get()).contains("delayed");
        await().atMost(WAIT).until(b::isLeader);
    }

    private SharedIndexInformer<DynamicObject> informer(FakeListerWatcher<DynamicObject> lw, Duration resync) {
        SharedIndexInformer<DynamicObject> informer = SharedIndexInformer.create(
                lw,
                InformerOptions.builder()
                        .resyncPeriod(resync)
                        .reflector(
                                ReflectorOptions.builder().useWatchList(false).build())
                        .ticker(ticker)
                        .build());
        informers.add(informer);
        return informer;
    }

    private LeaderElector elector(String identity) {
        LeaderElectionOptions config = LeaderElectionOptions.defaults("default", "one-clock", identity)
                .withTimings(LEASE, RENEW, RETRY)
                .withTicker(ticker);
        LeaderElector elector = new LeaderElector(client, config, new LeaderCallbacks() {
            @Override
            public void onStartedLeading() {}

            @Override
            public void onStoppedLeading() {}
        });
        electors.add(elector);
        return elector;
    }

    private static DynamicObject configMap(String name) {
        return DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", name));
    }
}
