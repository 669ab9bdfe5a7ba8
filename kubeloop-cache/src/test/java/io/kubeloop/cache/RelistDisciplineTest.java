package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Relist discipline: however often the server answers 410 Gone or 429 Too Many Requests, a reflector
 * lists no more often than its back-off allows, and never sooner than a {@code Retry-After} asks.
 *
 * <p><b>The bound.</b> Cycles (each at most two watch-lists, a LIST retried once from {@code ""}, and a
 * watch) are separated by back-off waits of at least {@code d_k = min(0.8 s · 2^k, 30 s)}: jitter and a
 * longer {@code Retry-After} only lengthen them, and the ramp restarts at 0.8 s only when more than 2 minutes passed since it last
 * restarted. In the worst case — every request fails at once, so cycles take no time — a ramp starting
 * at R has cycles no sooner than R + 0, 0.8, 2.4, 5.6, 12.0, 24.8, 50.4, 80.4, 110.4 s, and the ramp
 * before R ended with a wait of at least 30 s (it lasted over 2 minutes, longer than its first six waits
 * can take, 100.8 s). So any 60 s window holds at most <b>7 cycles</b> (7 from a ramp start; or one
 * cycle 30 s or more before R and 6 after it), and any 2-minute ramp at most 9, so a run of {@code m}
 * minutes at most {@code 9 · ceil(m / 2)} (4.5 per minute). LIST requests are those cycles times the
 * LISTs one cycle makes in the storm at hand.
 *
 * <p>The clock is virtual (an auto-advancing {@link FakeTicker}: every back-off steps it at once), so
 * {@value #DEFAULT_MINUTES} virtual minutes take milliseconds; {@code -Dkubeloop.relist.minutes=M} and
 * {@code -Dkubeloop.relist.seeds=N} run a longer window over more jitter seeds. Each test prints its
 * measured figures.
 */
class RelistDisciplineTest {

    private static final int DEFAULT_MINUTES = 30;
    private static final int DEFAULT_SEEDS = 10;
    /** Cycles in any 60 s window, derived above. */
    private static final int CYCLES_PER_MINUTE = 7;
    /** Cycles in one ramp of the back-off (which lasts more than 2 minutes). */
    private static final int CYCLES_PER_RAMP = 9;
    /** Requests after which the fake stops answering: far beyond any bound, so a tight loop fails the test. */
    private static final int RUNAWAY = 20_000;

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static int minutes() {
        return Integer.getInteger("kubeloop.relist.minutes", DEFAULT_MINUTES);
    }

    private static int seeds() {
        return Integer.getInteger("kubeloop.relist.seeds", DEFAULT_SEEDS);
    }

    /** The most cycles a run of {@code minutes} can hold: ramps last more than 2 minutes. */
    private static int cyclesIn(int minutes) {
        return CYCLES_PER_RAMP * ((minutes + 1) / 2);
    }

    /** One request as the fake server saw it, at its virtual time since the start. */
    record Request(String kind, String resourceVersion, Duration at) {
        boolean isList() {
            return kind.equals("LIST") || kind.equals("WATCHLIST");
        }
    }

    /**
     * A server in a storm: every watch ends at once with 410 Gone, and — as configured — every LIST at a
     * resourceVersion other than "" and "0" expires too, or every LIST or watch is answered 429 with a
     * Retry-After. Stops answering (blocks until released) once the window is over.
     */
    private static final class StormServer implements ListerWatcher<DynamicObject> {
        final FakeTicker ticker = FakeTicker.autoAdvancing();
        final long startNanos = ticker.nanoTime();
        final Duration window;
        final List<Request> requests = new CopyOnWriteArrayList<>();
        final CountDownLatch over = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);
        boolean listsAtAVersionExpire;
        Duration throttleLists;
        Duration throttleWatches;
        private int resourceVersion = 100;

        StormServer(Duration window) {
            this.window = window;
        }

        @Override
        public ObjectList<DynamicObject> list(ListOptions options) {
            record("LIST", options);
            if (throttleLists != null) {
                throw ApiExceptions.from(429, null, null, throttleLists);
            }
            String rv = options.resourceVersion();
            if (listsAtAVersionExpire && rv != null && !rv.isEmpty() && !rv.equals("0")) {
                throw ApiExceptions.from(Status.failure(410, "Expired", "too old resource version: " + rv));
            }
            return new ObjectList<>(List.of(), Integer.toString(++resourceVersion), null, null);
        }

        @Override
        public WatchStream<DynamicObject> watch(ListOptions options) {
            record(Boolean.TRUE.equals(options.sendInitialEvents()) ? "WATCHLIST" : "WATCH", options);
            if (throttleWatches != null) {
                throw ApiExceptions.from(429, null, null, throttleWatches);
            }
            return new WatchStream<>() {
                private boolean sent;

                @Override
                public Optional<WatchEvent<DynamicObject>> next() {
                    if (sent) {
                        return Optional.empty();
                    }
                    sent = true;
                    return Optional.of(
                            new WatchEvent.Error<>(Status.failure(410, "Expired", "too old resource version")));
                }

                @Override
                public void close() {}
            };
        }

        private void record(String kind, ListOptions options) {
            Duration at = Duration.ofNanos(ticker.nanoTime() - startNanos);
            if (at.compareTo(window) >= 0 || requests.size() >= RUNAWAY) {
                over.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("the storm is over");
            }
            requests.add(new Request(kind, options.resourceVersion(), at));
        }
    }

    /** Runs one reflector against {@code server} until its window is over; returns its requests. */
    private static List<Request> run(StormServer server, long seed, boolean useWatchList) throws InterruptedException {
        ReflectorOptions options = ReflectorOptions.builder()
                .name("storm")
                .ticker(server.ticker)
                .random(new SplittableRandom(seed))
                .useWatchList(useWatchList)
                .watchErrorHandler((r, e) -> {})
                .build();
        Reflector<DynamicObject> reflector = new Reflector<>(server, new RecordingStore(), options);
        reflector.start();
        try {
            assertThat(server.over.await(30, TimeUnit.SECONDS))
                    .as("the storm's window passed on the virtual clock")
                    .isTrue();
        } finally {
            server.released.countDown();
            reflector.close();
        }
        assertThat(server.requests).as("requests before the fake gave up").hasSizeLessThan(RUNAWAY);
        return List.copyOf(server.requests);
    }

    /** The most of {@code times} (ascending) in any window [t, t + 60 s). */
    static int mostInAMinute(List<Duration> times) {
        int most = 0;
        int first = 0;
        for (int last = 0; last < times.size(); last++) {
            while (times.get(last).minus(times.get(first)).compareTo(MINUTE) >= 0) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    /** The shortest gap between consecutive {@code times}; null with fewer than two. */
    static Duration shortestGap(List<Duration> times) {
        Duration shortest = null;
        for (int i = 1; i < times.size(); i++) {
            Duration gap = times.get(i).minus(times.get(i - 1));
            if (shortest == null || gap.compareTo(shortest) < 0) {
                shortest = gap;
            }
        }
        return shortest;
    }

    /**
     * Checks every seed's LIST requests against {@code listsPerCycle} times the bounds; prints the figures.
     *
     * @return the shortest gap between consecutive LIST requests over all seeds
     */
    private static Duration stormStaysWithinTheBound(
            String name, int listsPerCycle, boolean useWatchList, Consumer<StormServer> storm)
            throws InterruptedException {
        int minutes = minutes();
        int mostInAMinute = 0;
        long lists = 0;
        Duration shortestGap = null;
        for (long seed = 1; seed <= seeds(); seed++) {
            StormServer server = new StormServer(Duration.ofMinutes(minutes));
            storm.accept(server);
            List<Request> requests = run(server, seed, useWatchList);
            List<Duration> listTimes =
                    requests.stream().filter(Request::isList).map(Request::at).toList();
            int most = mostInAMinute(listTimes);
            assertThat(most)
                    .as("LIST requests in any 60 s window (seed %d): %s", seed, listTimes)
                    .isLessThanOrEqualTo(listsPerCycle * CYCLES_PER_MINUTE);
            assertThat(listTimes.size())
                    .as("LIST requests in %d minutes (seed %d)", minutes, seed)
                    .isLessThanOrEqualTo(listsPerCycle * cyclesIn(minutes));
            assertThat(listTimes.size())
                    .as("the storm kept the reflector relisting (seed %d)", seed)
                    .isGreaterThanOrEqualTo(minutes);
            mostInAMinute = Math.max(mostInAMinute, most);
            lists += listTimes.size();
            Duration gap = shortestGap(listTimes);
            if (shortestGap == null || gap.compareTo(shortestGap) < 0) {
                shortestGap = gap;
            }
        }
        System.out.printf(
                "RelistDisciplineTest %s: %d seeds x %d virtual minutes: at most %d LIST%s requests in any 60 s"
                        + " (bound %d), %.2f per minute on average (bound %.1f), at least %d ms apart%n",
                name,
                seeds(),
                minutes,
                mostInAMinute,
                useWatchList ? " and watch-list" : "",
                listsPerCycle * CYCLES_PER_MINUTE,
                (double) lists / seeds() / minutes,
                listsPerCycle * CYCLES_PER_RAMP / 2.0,
                shortestGap.toMillis());
        return shortestGap;
    }

    /**
     * Every watch ends at once with 410 Gone: each cycle is one LIST (at the last synced resourceVersion)
     * and one watch, so LIST requests stay within 7 in any 60 s and 9 per 2 minutes.
     */
    @Test
    void underAWatch410StormListsStayWithinTheBackOffBound() throws InterruptedException {
        stormStaysWithinTheBound("watch 410 storm", 1, false, server -> {});
    }

    /**
     * Every watch ends with 410 and every LIST at a resourceVersion expires too: each cycle lists twice
     * (the second at once from {@code ""}, as client-go does), so at most 14 LIST requests in any 60 s.
     */
    @Test
    void underAWatchAndList410StormListsStayWithinTwiceTheBackOffBound() throws InterruptedException {
        stormStaysWithinTheBound("watch and list 410 storm", 2, false, server -> server.listsAtAVersionExpire = true);
    }

    /**
     * With watch-list on, every watch-list and watch ends with 410: a watch-list expired at
     * {@code ""} is not retried at once but falls back to LIST, so each cycle makes at most two
     * watch-list requests and one LIST (counted alike: each asks for the whole collection) — at most 21
     * in any 60 s, never a tight loop of watch-lists.
     */
    @Test
    void aWatchListExpiredAtTheEmptyVersionFallsBackToListSoA410StormStaysWithinTheBound() throws InterruptedException {
        stormStaysWithinTheBound("watch-list 410 storm", 3, true, server -> {});
    }

    /**
     * Every LIST is answered 429 with {@code Retry-After: 5} (as the reflector sees it once the client's
     * own retries ran out): the next LIST never comes sooner than 5 s — the back-off's early waits
     * (0.8 s, 1.6 s, 3.2 s) are lengthened to the Retry-After — and LISTs stay within the back-off bound.
     */
    @Test
    void listsAnswered429WaitAtLeastTheRetryAfterBeforeTheNextList() throws InterruptedException {
        Duration retryAfter = Duration.ofSeconds(5);
        Duration shortestGap = stormStaysWithinTheBound(
                "LIST 429 Retry-After 5 s", 1, false, server -> server.throttleLists = retryAfter);
        assertThat(shortestGap).as("the shortest gap between LISTs").isGreaterThanOrEqualTo(retryAfter);
    }

    /**
     * Every watch (after a successful LIST) is refused with 429 and {@code Retry-After: 5}: the reflector
     * re-watches without listing, never sooner than 5 s after the refusal.
     */
    @Test
    void watchesRefused429ReWatchNoSoonerThanTheRetryAfterAndWithoutAList() throws InterruptedException {
        Duration retryAfter = Duration.ofSeconds(5);
        StormServer server = new StormServer(Duration.ofMinutes(10));
        server.throttleWatches = retryAfter;
        List<Request> requests = run(server, 1, false);
        List<Duration> watches = requests.stream()
                .filter(r -> r.kind().equals("WATCH"))
                .map(Request::at)
                .toList();
        assertThat(watches).hasSizeGreaterThan(10);
        assertThat(shortestGap(watches)).isGreaterThanOrEqualTo(retryAfter);
        assertThat(requests.stream().filter(Request::isList)).hasSize(1);
    }

    @Test
    void theWindowCountFindsTheBusiestMinute() {
        List<Duration> times = new ArrayList<>();
        for (long s : new long[] {0, 10, 59, 60, 61, 62, 119, 200}) {
            times.add(Duration.ofSeconds(s));
        }
        assertThat(mostInAMinute(times)).isEqualTo(5); // 10, 59, 60, 61, 62
        assertThat(shortestGap(times)).isEqualTo(Duration.ofSeconds(1));
    }
}
