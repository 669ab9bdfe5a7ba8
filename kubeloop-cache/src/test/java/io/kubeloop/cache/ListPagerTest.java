package io.kubeloop.cache;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.cache.testing.FakeListerWatcher;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ListStream;
import io.kubeloop.client.ObjectList;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reflector's paged LIST ({@link ListPager}) with and without prefetch: the same requests and the same
 * gathered list either way; with prefetch the next page is requested while the current one is read, and a page
 * in flight is abandoned when the list ends early.
 */
class ListPagerTest {

    private final FakeListerWatcher<DynamicObject> fake = FakeListerWatcher.dynamic();
    /** Every thread the pagers and reflectors under test started. */
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    private final ThreadFactory recording = r -> {
        Thread t = Thread.ofVirtual().name("list-pager-test-", 0).unstarted(r);
        threads.add(t);
        return t;
    };
    private Reflector<DynamicObject> reflector;

    @AfterEach
    void stop() {
        fake.releaseLists();
        if (reflector != null) {
            reflector.close();
        }
    }

    private void addPods(int n) {
        for (int i = 0; i < n; i++) {
            fake.add(pod("ns", String.format("p%05d", i)));
        }
    }

    private ListPager<DynamicObject> pager(ListerWatcher<DynamicObject> lw, long pageSize, boolean prefetch) {
        return new ListPager<>(lw, pageSize, prefetch, recording, () -> {});
    }

    private void assertNoThreadLeft() {
        for (Thread t : threads) {
            assertThat(t.isAlive()).as("thread %s still alive", t).isFalse();
        }
    }

    /** The fake with a distinct resourceVersion on every page: "page-1", "page-2"… */
    private ListerWatcher<DynamicObject> distinctPageVersions() {
        AtomicInteger pages = new AtomicInteger();
        return new ListerWatcher<>() {
            @Override
            public ObjectList<DynamicObject> list(ListOptions options) {
                ObjectList<DynamicObject> page = fake.list(options);
                return new ObjectList<>(
                        page.items(),
                        "page-" + pages.incrementAndGet(),
                        page.continueToken(),
                        page.remainingItemCount());
            }

            @Override
            public WatchStream<DynamicObject> watch(ListOptions options) {
                return fake.watch(options);
            }
        };
    }

    @Test
    void prefetchedPagingGathersExactlyWhatSequentialPagingGathers() {
        addPods(2_345);
        ListPager.Page<DynamicObject> sequential =
                pager(distinctPageVersions(), 100, false).list("0");
        List<ListOptions> sequentialRequests = fake.listRequests();
        ListPager.Page<DynamicObject> prefetched =
                pager(distinctPageVersions(), 100, true).list("0");
        List<ListOptions> prefetchedRequests = fake.listRequests()
                .subList(sequentialRequests.size(), fake.listRequests().size());

        assertThat(sequential.items()).containsExactlyElementsOf(fake.objects());
        assertThat(prefetched.items()).containsExactlyElementsOf(sequential.items());
        assertThat(sequential.resourceVersion()).isEqualTo("page-1");
        assertThat(prefetched.resourceVersion()).isEqualTo("page-1");
        assertThat(prefetchedRequests).hasSize(24);
        assertThat(prefetchedRequests).extracting(ListOptions::limit).containsOnly(100L);
        assertThat(prefetchedRequests.get(0).resourceVersion()).isEqualTo("0");
        assertThat(prefetchedRequests.subList(1, 24)).allSatisfy(o -> {
            assertThat(o.continueToken()).isNotNull();
            assertThat(o.resourceVersion()).isNull();
        });
        assertThat(sequentialRequests)
                .extracting(ListOptions::limit, ListOptions::resourceVersion)
                .containsExactlyElementsOf(prefetchedRequests.stream()
                        .map(o -> Tuple.tuple(o.limit(), o.resourceVersion()))
                        .toList());
        assertNoThreadLeft();
    }

    @Test
    void theNextPageIsRequestedWhileTheCurrentOneIsRead() {
        addPods(3);
        CountDownLatch secondRequested = new CountDownLatch(1);
        List<String> log = new CopyOnWriteArrayList<>();
        ListerWatcher<DynamicObject> lw = new ListerWatcher<>() {
            @Override
            public ObjectList<DynamicObject> list(ListOptions options) {
                return fake.list(options);
            }

            @Override
            public ListStream<DynamicObject> openList(ListOptions options) {
                boolean first = options.continueToken() == null;
                log.add(first ? "open first" : "open " + options.continueToken());
                if (!first) {
                    secondRequested.countDown();
                }
                ListStream<DynamicObject> page = ListStream.of(fake.list(options));
                return new ListStream<>() {
                    @Override
                    public String resourceVersion() {
                        return page.resourceVersion();
                    }

                    @Override
                    public String continueToken() {
                        return page.continueToken();
                    }

                    @Override
                    public Long remainingItemCount() {
                        return page.remainingItemCount();
                    }

                    @Override
                    public ObjectList<DynamicObject> read() {
                        if (first) {
                            try {
                                // the items of the first page "arrive" only once the next page was asked for
                                log.add(
                                        secondRequested.await(5, TimeUnit.SECONDS)
                                                ? "read first after the next was asked for"
                                                : "read first alone");
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return page.read();
                    }

                    @Override
                    public void close() {
                        page.close();
                    }
                };
            }

            @Override
            public WatchStream<DynamicObject> watch(ListOptions options) {
                return fake.watch(options);
            }
        };
        ListPager.Page<DynamicObject> page = pager(lw, 1, true).list("0");
        assertThat(page.items()).containsExactlyElementsOf(fake.objects());
        assertThat(log).startsWith("open first").contains("read first after the next was asked for");
        assertNoThreadLeft();
    }

    @ParameterizedTest(name = "prefetch {0}")
    @ValueSource(booleans = {true, false})
    void a410OnALaterPageGivesOneUnpaginatedListAtTheOriginalResourceVersion(boolean prefetch) {
        addPods(1_600);
        fake.failListRequest(
                3,
                ApiExceptions.from(Status.failure(
                        410,
                        "Expired",
                        "The provided continue parameter is too old to display a consistent list result.")));
        ListPager.Page<DynamicObject> page = pager(fake, 0, prefetch).list("0");

        assertThat(page.items()).containsExactlyElementsOf(fake.objects()); // pages 1–2 are not kept twice
        assertThat(page.resourceVersion()).isEqualTo(fake.resourceVersion());
        List<ListOptions> lists = fake.listRequests();
        assertThat(lists).hasSize(4);
        assertThat(lists.get(0).resourceVersion()).isEqualTo("0");
        assertThat(lists.get(0).limit()).isEqualTo(500);
        assertThat(lists.get(2).continueToken()).isNotNull();
        ListOptions fallback = lists.get(3);
        assertThat(fallback.continueToken()).isNull();
        assertThat(fallback.limit()).isZero();
        assertThat(fallback.resourceVersion()).isEqualTo("0");
        assertNoThreadLeft();
    }

    @ParameterizedTest(name = "prefetch {0}")
    @ValueSource(booleans = {true, false})
    void anErrorOfThePrefetchedPageSurfacesAsItself(boolean prefetch) {
        addPods(1_200);
        ApiException failure = ApiExceptions.from(Status.failure(500, "InternalError", "etcd is down"));
        fake.failListRequest(2, failure);
        ListPager<DynamicObject> pager = pager(fake, 0, prefetch);

        assertThatThrownBy(() -> pager.list("0")).isSameAs(failure);
        assertThat(fake.listRequests()).hasSize(2);
        assertNoThreadLeft();
    }

    @Test
    void aFailureReadingTheCurrentPageAbandonsThePageInFlight() {
        addPods(1_200);
        fake.holdListsFrom(2);
        IllegalStateException broken = new IllegalStateException("the connection broke");
        ListerWatcher<DynamicObject> lw = new ListerWatcher<>() {
            @Override
            public ObjectList<DynamicObject> list(ListOptions options) {
                return fake.list(options);
            }

            @Override
            public ListStream<DynamicObject> openList(ListOptions options) {
                ListStream<DynamicObject> page = ListStream.of(fake.list(options));
                if (options.continueToken() != null) {
                    return page;
                }
                return new ListStream<>() {
                    @Override
                    public String resourceVersion() {
                        return page.resourceVersion();
                    }

                    @Override
                    public String continueToken() {
                        return page.continueToken();
                    }

                    @Override
                    public Long remainingItemCount() {
                        return page.remainingItemCount();
                    }

                    @Override
                    public ObjectList<DynamicObject> read() {
                        await().atMost(Duration.ofSeconds(10)).until(() -> fake.heldLists() == 1);
                        throw broken;
                    }

                    @Override
                    public void close() {}
                };
            }

            @Override
            public WatchStream<DynamicObject> watch(ListOptions options) {
                return fake.watch(options);
            }
        };

        assertThatThrownBy(() -> pager(lw, 0, true).list("0")).isSameAs(broken);
        assertThat(fake.heldLists()).isZero();
        assertThat(fake.abandonedLists()).isEqualTo(1);
        assertNoThreadLeft();
    }

    @Test
    void stoppingTheReflectorMidListAbandonsThePageInFlight() {
        addPods(1_500);
        fake.holdListsFrom(2);
        RecordingStore store = new RecordingStore();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        reflector = new Reflector<>(
                fake,
                store,
                ReflectorOptions.builder()
                        .name("pager")
                        .useWatchList(false)
                        .threadFactory(recording)
                        .ticker(new FakeTicker())
                        .watchErrorHandler((r, e) -> errors.add(e))
                        .build());
        reflector.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> fake.heldLists() == 1);

        reflector.close();

        assertThat(fake.heldLists()).isZero();
        assertThat(fake.abandonedLists()).isEqualTo(1);
        assertThat(fake.listRequests()).hasSize(2);
        assertThat(store.calls).isEmpty();
        assertThat(errors).isEmpty();
        assertThat(threads).hasSizeGreaterThanOrEqualTo(2); // the runner and the prefetch
        assertNoThreadLeft();
    }

    @Test
    void aReflectorWithPrefetchSyncsAPagedListAndWatchesFromItsVersion() {
        addPods(1_234);
        RecordingStore store = new RecordingStore();
        reflector = new Reflector<>(
                fake,
                store,
                ReflectorOptions.builder()
                        .name("pager")
                        .useWatchList(false)
                        .threadFactory(recording)
                        .ticker(new FakeTicker())
                        .build());
        reflector.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> fake.openWatches() == 1);

        assertThat(fake.listRequests()).hasSize(3);
        assertThat(store.store.list()).containsExactlyInAnyOrderElementsOf(fake.objects());
        assertThat(fake.watchRequests().get(0).resourceVersion()).isEqualTo(fake.resourceVersion());
    }
}
