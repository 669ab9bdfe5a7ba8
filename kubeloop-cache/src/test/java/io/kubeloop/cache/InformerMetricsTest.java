package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an informer reports to its {@link InformerMetrics}: its lists with their sizes, watches started and
 * why each ended (a clean close, a silent or broken connection, 410 Gone), events by type, the time to the
 * first sync, live gauges of the cache's size, the last resourceVersion and each handler's backlog, and
 * each handler's delivery latency; and {@link SharedIndexInformer#sinceLastReceived()}.
 */
class InformerMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeTicker ticker = new FakeTicker();
    private final FakeListerWatcher<DynamicObject> fake = FakeListerWatcher.dynamic();
    private final Recording metrics = new Recording();
    private final AtomicReference<String> providedFor = new AtomicReference<>();
    private final SharedIndexInformer<DynamicObject> informer = SharedIndexInformer.create(
            fake,
            InformerOptions.builder()
                    .reflector(ReflectorOptions.builder()
                            .name("pods[all namespaces]")
                            .ticker(ticker)
                            .useWatchList(false)
                            .metrics(name -> {
                                providedFor.set(name);
                                return metrics;
                            })
                            .build())
                    .build());

    @AfterEach
    void close() {
        informer.close();
    }

    private static final class Recording implements InformerMetrics {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final Map<String, IntSupplier> backlogs = new ConcurrentHashMap<>();
        final AtomicReference<IntSupplier> objects = new AtomicReference<>();
        final AtomicReference<Supplier<String>> resourceVersion = new AtomicReference<>();

        @Override
        public void started(IntSupplier objects, Supplier<String> resourceVersion) {
            this.objects.set(objects);
            this.resourceVersion.set(resourceVersion);
        }

        @Override
        public void handlerAdded(String handler, IntSupplier backlog) {
            backlogs.put(handler, backlog);
        }

        @Override
        public void listed(Duration took, int items) {
            calls.add("listed " + items);
        }

        @Override
        public void watchStarted() {
            calls.add("watch");
        }

        @Override
        public void watchEnded(WatchEnd reason, Duration lasted, int events) {
            calls.add("ended " + reason + " after " + events);
        }

        @Override
        public void eventReceived(String type) {
            calls.add(type);
        }

        @Override
        public void synced(Duration took) {
            calls.add("synced");
        }

        @Override
        public void delivered(String handler, Duration latency) {
            calls.add("delivered to " + handler);
        }
    }

    private void awaitWatches(int open) {
        await().atMost(WAIT).until(() -> fake.openWatches() == open);
    }

    @Test
    void listsWatchesEventsSyncAndDeliveriesAreReportedWithWhyEachWatchEnded() {
        fake.add(TestObjects.pod("default", "a"));
        fake.add(TestObjects.pod("default", "b"));
        informer.addEventHandler(new RecordingHandler());
        informer.start();
        assertThat(informer.waitForCacheSync(WAIT)).isTrue();
        awaitWatches(1);
        assertThat(providedFor.get()).isEqualTo("pods[all namespaces]");

        fake.add(TestObjects.pod("default", "c"));
        fake.bookmark();
        await().atMost(WAIT).until(() -> metrics.calls.contains("BOOKMARK"));
        fake.closeWatches();
        awaitWatches(1);
        ticker.step(Duration.ofSeconds(2)); // not a very short watch
        fake.timeOutWatches();
        awaitWatches(1);
        ticker.step(Duration.ofSeconds(2));
        fake.breakWatches();
        awaitWatches(1);

        assertThat(metrics.calls)
                .containsSubsequence(
                        "listed 2",
                        "watch",
                        "ADDED",
                        "BOOKMARK",
                        "ended CLOSED after 2",
                        "watch",
                        "ended SILENT after 0",
                        "watch",
                        "ended BROKEN after 0",
                        "watch")
                .contains("synced", "delivered to handler-0");
        assertThat(metrics.calls.stream().filter(c -> c.startsWith("delivered")))
                .as("the two listed and the one added")
                .hasSize(3);
        assertThat(metrics.objects.get().getAsInt()).isEqualTo(3);
        assertThat(metrics.resourceVersion.get().get()).isEqualTo(fake.resourceVersion());
        assertThat(metrics.backlogs.get("handler-0").getAsInt()).isZero();
    }

    @Test
    void aWatchEndingWithinASecondWithoutEventsIsReportedAsShort() {
        informer.start();
        assertThat(informer.waitForCacheSync(WAIT)).isTrue();
        awaitWatches(1);

        fake.closeWatches();
        await().atMost(WAIT).until(() -> metrics.calls.contains("ended SHORT after 0"));
    }

    @Test
    void aWatchEndedBy410IsReportedAsExpiredAndTheRelistAsAList() {
        informer.start();
        assertThat(informer.waitForCacheSync(WAIT)).isTrue();
        awaitWatches(1);

        fake.forceGone();
        await().atMost(WAIT).until(() -> metrics.calls.contains("ended EXPIRED after 0"));
        ticker.step(Duration.ofSeconds(2)); // the back-off before the relist
        await().atMost(WAIT)
                .until(() -> metrics.calls.stream()
                                .filter(c -> c.startsWith("listed"))
                                .count()
                        == 2);
    }

    @Test
    void sinceLastReceivedGrowsWithSilenceAndRestartsWithAnEvent() {
        informer.start();
        assertThat(informer.waitForCacheSync(WAIT)).isTrue();
        awaitWatches(1);

        ticker.step(Duration.ofSeconds(90));
        assertThat(informer.sinceLastReceived()).isGreaterThanOrEqualTo(Duration.ofSeconds(90));

        fake.bookmark();
        await().atMost(WAIT).until(() -> informer.sinceLastReceived().compareTo(Duration.ofSeconds(1)) < 0);
    }
}
