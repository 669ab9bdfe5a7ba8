package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.faults.Fault;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Relist discipline over the wire: an informer reading ConfigMaps from the embedded API server through a
 * {@link FaultInjectingProxy} lists no more often than its back-off allows while every watch is ended with
 * 410 Expired, and never re-sends a LIST answered 429 sooner than its {@code Retry-After}. Requests are
 * timed where the proxy receives them, in real time.
 *
 * <p><b>410 storm</b> (watch-list on, the default): each back-off cycle makes at most two watch-list
 * requests, one LIST and one watch (a watch-list answered 410 at {@code ""} falls back to LIST), and
 * cycles are separated by back-off waits of at least 0.8, 1.6, 3.2, 6.4 and 12.8 s — so the first
 * {@value #STORM_SECONDS} s from the first request hold at most 5 cycles (the sixth comes no sooner than
 * 24.8 s): at most 15 requests for the collection's state (watch-lists and LISTs) and 5 plain watches.
 *
 * <p><b>Throttling</b> (watch-list off, so the informer LISTs): every LIST is answered 429 with
 * {@code Retry-After: 2}; the client re-sends it twice after 2 s each, then the reflector backs off for
 * at least the {@code Retry-After} too. Every LIST must come 2 s or more after the one before it, so
 * {@value #THROTTLE_SECONDS} s hold at most 8.
 *
 * <p>The virtual-time counterpart over half an hour of storm, with the bound's derivation, is
 * {@code io.kubeloop.cache.RelistDisciplineTest}.
 */
@Timeout(120)
class RelistDisciplineIntegrationTest extends FaultProxyTestBase {

    private static final String NAMESPACE = "relist";
    private static final int STORM_SECONDS = 15;
    private static final int THROTTLE_SECONDS = 14;
    private static final Duration RETRY_AFTER = Duration.ofSeconds(2);

    /** A request the proxy received for the namespace's ConfigMaps, at {@link System#nanoTime()}. */
    record Seen(FaultPlan.ProxiedRequest request, long atNanos) {
        boolean isWatchList() {
            return request.isWatch() && request.target().contains("sendInitialEvents=true");
        }

        boolean isList() {
            return request.method().equals("GET") && !request.isWatch();
        }

        boolean isPlainWatch() {
            return request.isWatch() && !isWatchList();
        }
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private ConfigMapChurn namespace;

    @BeforeEach
    void createNamespace() {
        namespace = new ConfigMapChurn(client, NAMESPACE, 1);
    }

    /** Starts the proxy with {@code plan} for the ConfigMaps, recording each of their requests. */
    private void startProxy(FaultPlan plan, ClientOptions clientOptions) {
        String collection = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
        proxy = FaultInjectingProxy.start(
                server.url(),
                server.clientConfig().sslContext(),
                request -> {
                    String path = request.target().split("\\?", 2)[0];
                    if (!path.equals(collection)) {
                        return new Fault.Pass();
                    }
                    seen.add(new Seen(request, System.nanoTime()));
                    return plan.choose(request);
                },
                Duration.ofSeconds(30));
        throughProxy = KubeClient.create(proxy.clientConfig(server.token()), clientOptions);
    }

    /** Runs an informer on the ConfigMaps through the proxy for {@code seconds} of real time. */
    private void runInformer(ReflectorOptions reflector, int seconds) throws InterruptedException {
        ListerWatcher<DynamicObject> lw = ListerWatcher.of(namespace.configMaps(throughProxy));
        try (SharedIndexInformer<DynamicObject> informer = SharedIndexInformer.create(
                lw, InformerOptions.builder().reflector(reflector).build())) {
            informer.start();
            Thread.sleep(Duration.ofSeconds(seconds));
        }
    }

    private List<Long> millisSinceFirst(Predicate<Seen> which) {
        List<Seen> all = List.copyOf(seen);
        long first = all.get(0).atNanos();
        return all.stream()
                .filter(which)
                .map(s -> Duration.ofNanos(s.atNanos() - first).toMillis())
                .toList();
    }

    /**
     * Every watch and watch-list is answered with a single 410 Expired event: in the first
     * {@value #STORM_SECONDS} s at most 15 watch-lists and LISTs together and at most 5 watches (5
     * back-off cycles), not a tight loop.
     */
    @Test
    void underA410StormOnEveryWatchListsStayWithinTheBackOffBound() throws InterruptedException {
        startProxy(
                request -> request.isWatch() ? new Fault.WatchGone() : new Fault.Pass(),
                ClientOptions.builder().rateLimitingEnabled(false).build());
        runInformer(ReflectorOptions.builder().name("relist-storm").build(), STORM_SECONDS);

        List<Long> state = millisSinceFirst(s -> s.isList() || s.isWatchList());
        List<Long> watches = millisSinceFirst(Seen::isPlainWatch);
        List<Long> inWindow =
                state.stream().filter(t -> t < STORM_SECONDS * 1000L).toList();
        List<Long> watchesInWindow =
                watches.stream().filter(t -> t < STORM_SECONDS * 1000L).toList();
        System.out.printf(
                "RelistDisciplineIntegrationTest 410 storm: %d watch-lists and LISTs (bound 15) and %d watches"
                        + " (bound 5) in %d s; LISTs and watch-lists at ms %s%n",
                inWindow.size(), watchesInWindow.size(), STORM_SECONDS, inWindow);
        assertThat(proxy.injected().getOrDefault("watch-gone", 0L))
                .as("watches ended with 410")
                .isGreaterThanOrEqualTo(4);
        assertThat(watchesInWindow).as("watches, one per cycle").hasSizeBetween(2, 5);
        assertThat(inWindow)
                .as("watch-lists and LISTs, at most three per cycle")
                .hasSizeLessThanOrEqualTo(15);
    }

    /**
     * Every LIST is answered 429 with {@code Retry-After: 2}: no LIST comes sooner than 2 s after the one
     * before it — neither the client's re-sends nor the reflector's next cycle once the client gave up.
     */
    @Test
    void listsAnswered429AreNeverResentSoonerThanTheirRetryAfter() throws InterruptedException {
        startProxy(
                request -> request.isWatch() ? new Fault.Pass() : new Fault.Reject(429, "TooManyRequests", RETRY_AFTER),
                ClientOptions.builder().rateLimitingEnabled(false).maxRetries(2).build());
        runInformer(
                ReflectorOptions.builder()
                        .name("relist-throttled")
                        .useWatchList(false)
                        .build(),
                THROTTLE_SECONDS);

        List<Long> lists = millisSinceFirst(Seen::isList);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < lists.size(); i++) {
            gaps.add(lists.get(i) - lists.get(i - 1));
        }
        System.out.printf(
                "RelistDisciplineIntegrationTest LIST 429 Retry-After 2 s: %d LISTs in %d s, gaps in ms %s%n",
                lists.size(), THROTTLE_SECONDS, gaps);
        assertThat(lists)
                .as("the client's re-sends and at least one cycle of the reflector")
                .hasSizeGreaterThanOrEqualTo(4);
        assertThat(gaps).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(RETRY_AFTER.toMillis()));
        assertThat(lists.stream().filter(t -> t < THROTTLE_SECONDS * 1000L))
                .hasSizeLessThanOrEqualTo(THROTTLE_SECONDS / 2 + 1);
    }
}
