package io.kubeloop.cache;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.ResourceVersionMatch;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.testing.FakeTicker;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Matrix lines 21–28 (Reflector with a fake ListerWatcher and a fake clock). */
class ReflectorTest {

    private final FakeTicker ticker = new FakeTicker();
    private final FakeListerWatcher<DynamicObject> fake = FakeListerWatcher.dynamic();
    private final RecordingStore store = new RecordingStore();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private Reflector<DynamicObject> reflector;

    private ReflectorOptions.Builder options() {
        return ReflectorOptions.builder()
                .name("test")
                .ticker(ticker)
                .useWatchList(false)
                .watchErrorHandler((r, e) -> errors.add(e));
    }

    private Reflector<DynamicObject> start(ReflectorOptions.Builder o) {
        return start(fake, o);
    }

    private Reflector<DynamicObject> start(ListerWatcher<DynamicObject> lw, ReflectorOptions.Builder o) {
        reflector = new Reflector<>(lw, store, o.build());
        reflector.start();
        return reflector;
    }

    @AfterEach
    void stop() {
        if (reflector != null) {
            reflector.close();
            assertThat(fake.openWatches()).isZero();
        }
    }

    private void awaitWatches(int n) {
        await().atMost(Duration.ofSeconds(10)).until(() -> fake.watchRequests().size() >= n && fake.openWatches() >= 1);
    }

    @Test
    void firstListAtZeroThenWatchAtTheListsVersionWithBookmarksAndA5To10MinuteTimeout() {
        fake.add(pod("ns", "a"));
        fake.add(pod("ns", "b"));
        start(options());
        awaitWatches(1);
        ListOptions list = fake.listRequests().get(0);
        assertThat(list.resourceVersion()).isEqualTo("0");
        assertThat(list.limit()).isEqualTo(500);
        ListOptions watch = fake.watchRequests().get(0);
        assertThat(watch.resourceVersion()).isEqualTo(fake.resourceVersion());
        assertThat(watch.allowWatchBookmarks()).isTrue();
        assertThat(watch.timeout().toSeconds()).isBetween(300L, 599L);
        assertThat(store.calls).containsExactly("replace [a, b] @" + fake.resourceVersion());
        assertThat(reflector.lastSyncResourceVersion()).isEqualTo(fake.resourceVersion());
    }

    @Test
    void watchEventsReachTheStoreAndAdvanceTheLastSyncedVersion() {
        start(options());
        awaitWatches(1);
        fake.add(pod("ns", "a"));
        fake.modify(pod("ns", "a"));
        fake.delete(ObjectKey.of("ns", "a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.size() == 4);
        assertThat(store.calls.subList(1, 4)).containsExactly("add a", "update a", "delete a");
        assertThat(reflector.lastSyncResourceVersion()).isEqualTo(fake.resourceVersion());
    }

    @Test
    void aBookmarkAdvancesTheLastSyncedVersionOnly() {
        start(options());
        awaitWatches(1);
        fake.advanceAndBookmark(50);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> reflector.lastSyncResourceVersion().equals(fake.resourceVersion()));
        assertThat(store.calls).hasSize(1); // just the initial replace
    }

    @Test
    void watch410RelistsAtTheLastSyncedVersionAndAFailingListRetriesAtOnceWithEmptyVersion() {
        start(options());
        awaitWatches(1);
        fake.add(pod("ns", "a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.size() == 2);
        String synced = reflector.lastSyncResourceVersion();
        fake.failNextList(ApiExceptions.from(Status.failure(410, "Expired", "too old resource version")));
        fake.forceGone();
        ticker.awaitWaiters(1); // back-off after the 410
        assertThat(errors).singleElement().isInstanceOf(GoneException.class);
        ticker.step(Duration.ofSeconds(2));
        awaitWatches(2);
        assertThat(fake.listRequests()).extracting(ListOptions::resourceVersion).containsExactly("0", synced, "");
        assertThat(ticker.sleeps()).hasSize(1);
    }

    @Test
    void anExpiredContinueTokenGivesOneUnpaginatedListAtTheOriginalVersion() {
        for (int i = 0; i < 5; i++) {
            fake.add(pod("ns", "p" + i));
        }
        ListerWatcher<DynamicObject> expiring = new ListerWatcher<>() {
            @Override
            public ObjectList<DynamicObject> list(ListOptions options) {
                if (options.continueToken() != null) {
                    fake.expireContinueTokens();
                }
                return fake.list(options);
            }

            @Override
            public WatchStream<DynamicObject> watch(ListOptions options) {
                return fake.watch(options);
            }
        };
        start(expiring, options().pageSize(2));
        awaitWatches(1);
        List<ListOptions> lists = fake.listRequests();
        assertThat(lists).hasSize(3);
        assertThat(lists.get(0).limit()).isEqualTo(2);
        assertThat(lists.get(1).continueToken()).isNotNull();
        assertThat(lists.get(1).resourceVersion()).isNull();
        assertThat(lists.get(2).continueToken()).isNull();
        assertThat(lists.get(2).limit()).isZero();
        assertThat(lists.get(2).resourceVersion()).isEqualTo("0");
        assertThat(store.calls).containsExactly("replace [p0, p1, p2, p3, p4] @" + fake.resourceVersion());
    }

    @Test
    void pagesAreFollowedAndTheListKeepsTheFirstPagesVersion() {
        for (int i = 0; i < 5; i++) {
            fake.add(pod("ns", "p" + i));
        }
        start(options().pageSize(2));
        awaitWatches(1);
        assertThat(fake.listRequests()).hasSize(3);
        assertThat(store.calls).containsExactly("replace [p0, p1, p2, p3, p4] @" + fake.resourceVersion());
    }

    @Test
    void aCleanCloseAfterASecondReWatchesWithoutListButAnInstantEmptyCloseRelistsAfterBackoff() {
        start(options());
        awaitWatches(1);
        ticker.step(Duration.ofSeconds(2));
        fake.closeWatches();
        awaitWatches(2);
        assertThat(fake.listRequests()).hasSize(1);
        assertThat(fake.watchRequests().get(1).resourceVersion()).isEqualTo(reflector.lastSyncResourceVersion());
        assertThat(ticker.sleeps()).isEmpty();

        fake.closeWatches(); // at once, nothing received: "very short watch"
        ticker.awaitWaiters(1);
        assertThat(errors).singleElement().isInstanceOf(WatchClosedException.class);
        assertThat(fake.listRequests()).hasSize(1);
        ticker.step(Duration.ofSeconds(2));
        awaitWatches(3);
        assertThat(fake.listRequests()).hasSize(2);
    }

    @Test
    void aWatchStartRefusedWith429OrConnectionRefusedBacksOffAndReWatchesWithoutList() {
        fake.failNextWatch(ApiExceptions.from(Status.failure(429, "TooManyRequests", "slow down")));
        fake.failNextWatch(new TransportException(
                URI.create("https://127.0.0.1:1"), "connection refused", new ConnectException("Connection refused")));
        start(options());
        ticker.awaitSleeps(1);
        ticker.awaitWaiters(1);
        ticker.step(Duration.ofSeconds(2));
        ticker.awaitSleeps(2);
        ticker.awaitWaiters(1);
        ticker.step(Duration.ofSeconds(4));
        awaitWatches(3);
        assertThat(fake.listRequests()).hasSize(1);
        assertThat(errors).isEmpty();
    }

    @Test
    void failuresBackOffWithGrowingJitteredWaitsNeverATightLoop() {
        for (int i = 0; i < 4; i++) {
            fake.failNextList(ApiExceptions.from(Status.failure(500, "InternalError", "etcd is down")));
        }
        start(options());
        for (int i = 1; i <= 4; i++) {
            ticker.awaitSleeps(i);
            ticker.awaitWaiters(1);
            ticker.step(Duration.ofSeconds(13));
        }
        awaitWatches(1);
        List<Duration> sleeps = ticker.sleeps();
        assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(800), Duration.ofMillis(1600));
        assertThat(sleeps.get(1)).isBetween(Duration.ofMillis(1600), Duration.ofMillis(3200));
        assertThat(sleeps.get(2)).isBetween(Duration.ofMillis(3200), Duration.ofMillis(6400));
        assertThat(fake.listRequests()).hasSize(5);
        assertThat(errors).hasSize(4);
    }

    @Test
    void watchListStreamsTheInitialStateAndReplacesTheStoreOnlyAtTheEndBookmark() {
        fake.serveWatchLists();
        fake.add(pod("ns", "a"));
        fake.add(pod("ns", "b"));
        start(options().useWatchList(true));
        await().atMost(Duration.ofSeconds(10)).until(() -> !store.calls.isEmpty());
        assertThat(store.calls).containsExactly("replace [a, b] @" + fake.resourceVersion());
        assertThat(fake.listRequests()).isEmpty();
        ListOptions w = fake.watchRequests().get(0);
        assertThat(w.sendInitialEvents()).isTrue();
        assertThat(w.resourceVersionMatch()).isEqualTo(ResourceVersionMatch.NOT_OLDER_THAN);
        assertThat(w.allowWatchBookmarks()).isTrue();
        assertThat(w.resourceVersion()).isEmpty();
        fake.add(pod("ns", "c"));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.size() == 2);
        assertThat(store.calls.get(1)).isEqualTo("add c");
        assertThat(fake.watchRequests()).hasSize(1); // the same watch goes on
    }

    @Test
    void aServerRejectingWatchListIsListedInTheSameCycle() {
        fake.add(pod("ns", "a"));
        start(options().useWatchList(true));
        awaitWatches(2);
        assertThat(fake.watchRequests().get(0).sendInitialEvents()).isTrue();
        assertThat(fake.listRequests()).hasSize(1);
        assertThat(fake.watchRequests().get(1).sendInitialEvents()).isNull();
        assertThat(ticker.sleeps()).isEmpty();
        assertThat(store.calls).containsExactly("replace [a] @" + fake.resourceVersion());
    }

    // client-go's StreamWatcher treats a reset connection or a body cut off mid-event as a clean close
    @Test
    void aWatchThatBreaksAfterEventsResumesAtOnceFromTheLastResourceVersionWithoutAList() {
        start(options());
        awaitWatches(1);
        fake.add(pod("ns", "a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.contains("add a"));
        String seen = reflector.lastSyncResourceVersion();
        fake.breakWatches();
        awaitWatches(2);
        assertThat(fake.watchRequests().get(1).resourceVersion()).isEqualTo(seen);
        assertThat(fake.listRequests()).as("no relist").hasSize(1);
        assertThat(ticker.sleeps()).as("no back-off").isEmpty();
        assertThat(errors).as("not an error: a broken stream is an ending").isEmpty();
    }

    @Test
    void everyWatchAsksTheClientForTheReflectorsIdleTimeoutOrLeavesItToTheClient() {
        fake.serveWatchLists();
        start(options().useWatchList(true).watchIdleTimeout(Duration.ofSeconds(90)));
        awaitWatches(1);
        ticker.step(Duration.ofSeconds(2)); // not a very short watch
        fake.closeWatches();
        awaitWatches(2);
        assertThat(fake.watchRequests()).extracting(ListOptions::idleTimeout).containsOnly(Duration.ofSeconds(90));
        assertThat(ReflectorOptions.defaults().watchIdleTimeout())
                .as("the client's default")
                .isNull();
    }

    @Test
    void aWatchTheClientEndedBecauseItWentSilentIsResumedAtOnceFromTheLastResourceVersionWithoutAList() {
        start(options());
        awaitWatches(1);
        fake.add(pod("ns", "a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.contains("add a"));
        String seen = reflector.lastSyncResourceVersion();
        fake.timeOutWatches();
        fake.add(pod("ns", "b")); // never reached the silent watch
        awaitWatches(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> store.calls.contains("add b"));
        assertThat(fake.watchRequests().get(1).resourceVersion()).isEqualTo(seen);
        assertThat(fake.listRequests()).as("no relist").hasSize(1);
        assertThat(ticker.sleeps()).as("no back-off").isEmpty();
        assertThat(errors).as("a silent watch is an ending, not an error").isEmpty();
    }

    @Test
    void aWatchThatBreaksAtOnceWithoutEventsIsAVeryShortWatchAndRelistsAfterBackoff() {
        start(options());
        awaitWatches(1);
        fake.breakWatches();
        ticker.awaitWaiters(1);
        assertThat(errors)
                .singleElement()
                .extracting(Throwable::getMessage)
                .asString()
                .contains("very short watch");
        ticker.step(Duration.ofSeconds(2));
        awaitWatches(2);
        assertThat(fake.listRequests()).hasSize(2);
    }

    @Test
    void resyncTicksCallTheStoresResyncWhileShouldResyncAgrees() {
        boolean[] allow = {true};
        start(options().resyncPeriod(Duration.ofSeconds(30)).shouldResync(() -> allow[0]));
        awaitWatches(1);
        ticker.awaitWaiters(1); // the resync timer
        ticker.step(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.count("resync") == 1);
        allow[0] = false;
        ticker.awaitWaiters(1);
        ticker.step(Duration.ofSeconds(30));
        ticker.awaitSleeps(3);
        ticker.awaitWaiters(1);
        assertThat(store.count("resync")).isEqualTo(1);
    }

    @Test
    void closeStopsAWatchingReflectorAndWaitsForItsThreads() {
        start(options().resyncPeriod(Duration.ofMinutes(1)));
        awaitWatches(1);
        reflector.close();
        assertThat(fake.openWatches()).isZero();
        int watches = fake.watchRequests().size();
        ticker.step(Duration.ofMinutes(5));
        assertThat(fake.watchRequests()).hasSize(watches);
        assertThat(ticker.waiters()).isZero();
    }
}
