package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.Lister;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.testing.faults.ConnectionPlan;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dead HTTP/2 connection heals. An informer and a controller whose client multiplexes every request,
 * watches included, on the JDK HttpClient's one HTTP/2 connection ({@code dedicatedWatchConnections(false)},
 * {@code http1Requests(false)})
 * read through a {@link FaultInjectingProxy} relay, which passes HTTP/2 frames through untouched. In
 * two phases a writer changes ConfigMaps directly on the server, and during each the relay freezes
 * every open connection: nothing passes either way from then on, and the connections stay open, as a
 * half-open connection or a load balancer that stopped forwarding leaves them. The JDK never checks a
 * connection (it sends no HTTP/2 PINGs), so the client must replace it on the evidence it has: in the
 * first phase the watches' idle timeout (1.5 s; the server sends bookmarks every 250 ms), in the second a
 * request without an answer within the request timeout (2 s). Each time later requests go over a new
 * connection; the watches are resumed from their last resourceVersion without a relist, and after each
 * phase's last write the caches equal the server's state and the controller has reconciled every key at
 * its last change, within the idle timeout and the request timeout plus a few seconds. With a client
 * that kept using the dead connection, every request would time out for good and nothing would
 * converge.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeadHttp2ConnectionIntegrationTest extends EmbeddedServerTestBase {

    private static final String NAMESPACE = "frozen";
    private static final int NAMES = 30;
    private static final Duration IDLE = Duration.ofMillis(1500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    /** How long after the last write the caches must have converged. */
    private static final Duration BOUND = IDLE.plus(REQUEST_TIMEOUT).plusSeconds(8);

    private FaultInjectingProxy relay;
    private KubeClient throughRelay;
    private ConfigMapChurn churn;

    @Override
    protected ServerOptions serverOptions() {
        return ServerOptions.defaults().withBookmarkInterval(Duration.ofMillis(250));
    }

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.builder().rateLimitingEnabled(false).build();
    }

    @AfterEach
    void stopRelay() {
        if (throughRelay != null) {
            throughRelay.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    /** A LIST of ConfigMaps, or a watch-list (a watch that starts with the whole collection). */
    private static boolean isConfigMapList(ApiRequest request) {
        String path = request.uri().getPath();
        String query = request.uri().getQuery() == null ? "" : request.uri().getQuery();
        return path.endsWith("/configmaps")
                && (!query.contains("watch=true") || query.contains("sendInitialEvents=true"));
    }

    /**
     * Writes at random for {@code length}, and once {@code at} into it calls {@code freeze}.
     *
     * @return what {@code freeze} returned
     */
    private int writeFor(Duration length, Duration at, SplittableRandom random, IntSupplier freeze)
            throws InterruptedException {
        long start = System.nanoTime();
        int writes = 0;
        int frozen = -1;
        while (System.nanoTime() - start < length.toNanos()) {
            churn.writeOnce(random);
            writes++;
            if (frozen < 0 && System.nanoTime() - start >= at.toNanos()) {
                frozen = freeze.getAsInt();
            }
            Thread.sleep(random.nextInt(30));
        }
        System.out.println("DeadHttp2ConnectionIntegrationTest: " + writes + " writes");
        return frozen;
    }

    /** Waits at most {@link #BOUND} until the cache, the model and the controller agree with the server. */
    private void awaitConvergence(
            SharedIndexInformer<DynamicObject> informer, ResourceVersions.HandlerModel model, long seed, String when) {
        Duration took = churn.awaitConvergence(informer, model, BOUND, when, seed);
        System.out.printf(
                "DeadHttp2ConnectionIntegrationTest: converged %d ms after the last write %s%n", took.toMillis(), when);
    }

    @Test
    void informerAndControllerConvergeWhenTheirHttp2ConnectionIsFrozenByMovingToAFreshOne() throws Exception {
        churn = new ConfigMapChurn(client, NAMESPACE, NAMES);
        long seed = Long.getLong("kubeloop.faults.seed", System.nanoTime());
        System.out.println(
                "DeadHttp2ConnectionIntegrationTest seed " + seed + " (replay: -Dkubeloop.faults.seed=" + seed + ")");

        AtomicInteger responses = new AtomicInteger();
        AtomicInteger overHttp2 = new AtomicInteger();
        AtomicInteger lists = new AtomicInteger();
        Interceptor observing = chain -> {
            if (isConfigMapList(chain.request())) {
                lists.incrementAndGet();
            }
            ApiResponse response = chain.proceed(chain.request());
            responses.incrementAndGet();
            if (response.headers().containsKey(":status")) { // the JDK's HTTP/2 pseudo-header
                overHttp2.incrementAndGet();
            }
            return response;
        };
        relay = FaultInjectingProxy.startRelay(server, ConnectionPlan.none());
        throughRelay = KubeClient.create(
                relay.clientConfig(),
                ClientOptions.builder()
                        .rateLimitingEnabled(false)
                        .dedicatedWatchConnections(false)
                        .http1Requests(false)
                        .watchIdleTimeout(IDLE)
                        .requestTimeout(REQUEST_TIMEOUT)
                        .interceptors(List.of(observing))
                        .build());

        ResourceVersions.HandlerModel model = new ResourceVersions.HandlerModel();
        ResourceClient<DynamicObject> relayedCms = churn.configMaps(throughRelay);
        InformerOptions informerOptions = InformerOptions.builder()
                .reflector(ReflectorOptions.builder()
                        .name("frozen-cms")
                        .watchIdleTimeout(IDLE)
                        .build())
                .build();
        try (SharedIndexInformer<DynamicObject> informer =
                        SharedIndexInformer.create(ListerWatcher.of(relayedCms), informerOptions);
                InformerFactory factory = InformerFactory.create(throughRelay, InformerOptions.defaults())) {
            informer.addEventHandler(model);
            Lister<ConfigMap> lister = factory.listerFor(ConfigMap.class, InformerScope.all());
            try (Controller controller =
                    ControllerBuilder.forResource(ConfigMap.class).build(factory, churn.recordingReconciler(lister))) {
                informer.start();
                factory.start();
                controller.start(); // waits for the caches
                int initialLists = lists.get();

                SplittableRandom random = new SplittableRandom(seed);
                // phase one: frozen 1 s into 3 s of writes, found by the watches' idle timeout
                int frozenFirst =
                        writeFor(Duration.ofSeconds(3), Duration.ofSeconds(1), random, () -> relay.freezeAll());
                awaitConvergence(informer, model, seed, "after the first freeze");
                // phase two: frozen 1 s into 4 s of writes, found at once by a request's timeout
                int frozenSecond = writeFor(Duration.ofSeconds(4), Duration.ofSeconds(1), random, () -> {
                    int frozen = relay.freezeAll();
                    long probe = System.nanoTime();
                    assertThatThrownBy(() -> throughRelay.raw().get("/version"))
                            .as("a request on the frozen connection")
                            .isInstanceOf(TransportException.class)
                            .hasMessageContaining("no response within 2s");
                    assertThat(throughRelay.raw().get("/version"))
                            .as("the next request, on a new connection")
                            .isNotEmpty();
                    assertThat(Duration.ofNanos(System.nanoTime() - probe)).isLessThan(REQUEST_TIMEOUT.plusSeconds(3));
                    return frozen;
                });
                awaitConvergence(informer, model, seed, "after the second freeze");
                System.out.println("DeadHttp2ConnectionIntegrationTest: connections relayed "
                        + relay.relayedConnections() + ", frozen " + relay.injected());

                assertThat(frozenFirst)
                        .as("the shared connection was open when frozen")
                        .isPositive();
                assertThat(frozenSecond)
                        .as("its replacement was open when frozen")
                        .isPositive();
                assertThat(relay.relayedConnections())
                        .as("HTTP/2 only: the first connection and two replacements")
                        .containsOnlyKeys("h2")
                        .hasEntrySatisfying("h2", n -> assertThat(n).isGreaterThanOrEqualTo(3));
                assertThat(overHttp2.get())
                        .as("every response came over HTTP/2")
                        .isEqualTo(responses.get())
                        .isPositive();
                assertThat(lists.get() - initialLists)
                        .as("watches were resumed, never relisted")
                        .isZero();
                assertThat(model.backwards)
                        .as("updates that went back in time (seed %d)", seed)
                        .isEmpty();
            }
        }
    }
}
