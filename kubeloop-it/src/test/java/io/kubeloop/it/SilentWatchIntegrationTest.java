package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
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
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.testing.faults.Fault;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Watches on silent connections end and are resumed, so caches never go stale for good. An informer
 * and a controller read through a {@link FaultInjectingProxy} that blackholes every watch that
 * resumes from a resourceVersion — it relays the response head and up to 2 KB of events (often
 * cutting one in half), then nothing, not even the server's end of the watch, and never closes the
 * connection — while a writer changes ConfigMaps directly on the server, for at least 4 s and until
 * watches were blackholed again and again. The server ends healthy watches after 2 s (the proxy caps
 * their {@code timeoutSeconds}; longer than the 1 s under which a watch that ended without an event
 * counts as "very short" and is relisted) and sends bookmarks every 250 ms, so only a blackholed watch
 * is ever silent for the 1.5 s idle timeout the clients are configured with (the informer through
 * {@link ReflectorOptions#watchIdleTimeout()}, the controller's informer factory through
 * {@link ClientOptions#watchIdleTimeout()}). Each blackholed watch must be
 * ended by its client and resumed from its last resourceVersion without a list; once the blackholes
 * stop, the cache must equal the server's state, and the controller must have reconciled every key
 * after its last change, within the idle timeout plus a few seconds.
 *
 * <p>Both transports: dedicated HTTP/1.1 watch connections, and watches through the JDK HttpClient
 * ({@code dedicatedWatchConnections(false)}; this proxy speaks HTTP/1.1, so HTTP/2 itself is covered by
 * a watch straight to the server, and a whole HTTP/2 connection gone silent by
 * {@link DeadHttp2ConnectionIntegrationTest}).
 */
@Timeout(180)
class SilentWatchIntegrationTest extends FaultProxyTestBase {

    private static final String NAMESPACE = "silent";
    private static final int NAMES = 30;
    private static final Duration IDLE = Duration.ofMillis(1500);
    /** The shortest time the writer writes while watches are blackholed. */
    private static final Duration MIN_CHURN = Duration.ofSeconds(4);
    /** Blackholed watches the writer waits for: both informers' watches, again and again. */
    private static final int BLACKHOLES = 6;
    /** The longest the writer waits for {@link #BLACKHOLES}. */
    private static final Duration MAX_CHURN = Duration.ofSeconds(30);
    /** How long after the last write the caches must have converged. */
    private static final Duration BOUND = IDLE.plusSeconds(10);

    private ConfigMapChurn churn;

    @Override
    protected ServerOptions serverOptions() {
        return ServerOptions.defaults().withBookmarkInterval(Duration.ofMillis(250));
    }

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.builder().rateLimitingEnabled(false).build();
    }

    private static boolean isConfigMapList(FaultPlan.ProxiedRequest request) {
        int q = request.target().indexOf('?');
        String path = q < 0 ? request.target() : request.target().substring(0, q);
        return request.method().equals("GET") && path.endsWith("/configmaps") && !request.isWatch();
    }

    @ParameterizedTest(name = "dedicated watch connections: {0}")
    @ValueSource(booleans = {true, false})
    void informerAndControllerResumeWatchesThatWentSilentAndConverge(boolean dedicated) throws Exception {
        churn = new ConfigMapChurn(client, NAMESPACE, NAMES);
        long seed = Long.getLong("kubeloop.faults.seed", System.nanoTime());
        System.out.println(
                "SilentWatchIntegrationTest seed " + seed + " (replay: -Dkubeloop.faults.seed=" + seed + ")");
        AtomicInteger relists = new AtomicInteger();
        AtomicBoolean blackholing = new AtomicBoolean();
        proxy = FaultInjectingProxy.start(server, request -> {
            boolean watchList = request.target().contains("sendInitialEvents=true");
            if (!blackholing.get()) {
                return new Fault.Pass();
            }
            if (isConfigMapList(request) || watchList) {
                relists.incrementAndGet();
                return new Fault.Pass();
            }
            return request.isWatch()
                    ? new Fault.Blackhole(ThreadLocalRandom.current().nextInt(2048))
                    : new Fault.Pass();
        });
        proxy.maxWatch(Duration.ofSeconds(2)); // the server ends healthy watches after 2 s: clients come back often
        throughProxy = KubeClient.create(
                proxy.clientConfig(),
                ClientOptions.builder()
                        .rateLimitingEnabled(false)
                        .dedicatedWatchConnections(dedicated)
                        .watchIdleTimeout(IDLE)
                        .build());

        ResourceVersions.HandlerModel model = new ResourceVersions.HandlerModel();
        ResourceClient<DynamicObject> proxiedCms = churn.configMaps(throughProxy);
        InformerOptions informerOptions = InformerOptions.builder()
                .reflector(ReflectorOptions.builder()
                        .name("silent-cms")
                        .watchIdleTimeout(IDLE)
                        .build())
                .build();
        try (SharedIndexInformer<DynamicObject> informer =
                        SharedIndexInformer.create(ListerWatcher.of(proxiedCms), informerOptions);
                InformerFactory factory = InformerFactory.create(throughProxy, InformerOptions.defaults())) {
            informer.addEventHandler(model);
            Lister<ConfigMap> lister = factory.listerFor(ConfigMap.class, InformerScope.all());
            try (Controller controller =
                    ControllerBuilder.forResource(ConfigMap.class).build(factory, churn.recordingReconciler(lister))) {
                informer.start();
                factory.start();
                controller.start(); // waits for the caches

                blackholing.set(true);
                SplittableRandom random = new SplittableRandom(seed);
                long started = System.nanoTime();
                int writes = 0;
                while (System.nanoTime() - started < MIN_CHURN.toNanos()
                        || proxy.injected().getOrDefault("blackhole", 0L) < BLACKHOLES
                                && System.nanoTime() - started < MAX_CHURN.toNanos()) {
                    churn.writeOnce(random);
                    writes++;
                    Thread.sleep(random.nextInt(30));
                }
                long lastWrite = System.nanoTime();
                blackholing.set(false); // watches from now on pass; the ones blackholed stay silent
                long blackholes = proxy.injected().getOrDefault("blackhole", 0L);
                System.out.println(
                        "SilentWatchIntegrationTest: " + writes + " writes, " + blackholes + " watches blackholed");

                churn.awaitConvergence(informer, model, BOUND, "after the blackholes", seed);
                System.out.printf(
                        "SilentWatchIntegrationTest: converged %d ms after the last write%n",
                        (System.nanoTime() - lastWrite) / 1_000_000);
                assertThat(blackholes)
                        .as("both informers had watches blackholed, again and again")
                        .isGreaterThanOrEqualTo(4);
                assertThat(relists.get())
                        .as("silent watches were resumed, never relisted")
                        .isZero();
                assertThat(model.backwards)
                        .as("updates that went back in time (seed %d)", seed)
                        .isEmpty();
            }
        }
    }

    @Test
    void overHttp2AWatchTheServerLeavesSilentIsEndedByItsIdleTimeoutAndResumedOverHttp2() {
        AtomicInteger watches = new AtomicInteger();
        AtomicInteger overHttp2 = new AtomicInteger();
        Interceptor counting = chain -> {
            ApiResponse response = chain.proceed(chain.request());
            if (chain.request().streaming()) {
                watches.incrementAndGet();
                if (response.headers().containsKey(":status")) { // the JDK's HTTP/2 pseudo-header
                    overHttp2.incrementAndGet();
                }
            }
            return response;
        };
        // bookmarks every minute (the default): a watch of a quiet collection is silent for the 2 s idle timeout
        try (EmbeddedApiServer quiet = EmbeddedApiServer.start();
                KubeClient h2 = KubeClient.create(
                        quiet.clientConfig(),
                        ClientOptions.builder()
                                .rateLimitingEnabled(false)
                                .dedicatedWatchConnections(false)
                                .requestTimeout(Duration.ofSeconds(1))
                                .interceptors(List.of(counting))
                                .build())) {
            ResourceClient<DynamicObject> direct = quiet.client()
                    .resource(ConfigMapChurn.CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                    .inNamespace("default");
            ResourceClient<DynamicObject> viaH2 = h2.resource(
                            ConfigMapChurn.CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                    .inNamespace("default");
            InformerOptions options = InformerOptions.builder()
                    .reflector(ReflectorOptions.builder()
                            .name("h2-cms")
                            .watchIdleTimeout(Duration.ofSeconds(2))
                            .build())
                    .build();
            try (SharedIndexInformer<DynamicObject> informer =
                    SharedIndexInformer.create(ListerWatcher.of(viaH2), options)) {
                informer.start();
                await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
                await().atMost(Duration.ofSeconds(30)).until(() -> watches.get() >= 4); // three silent watches resumed
                direct.create(
                        DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", "after-silence")),
                        WriteOptions.none());
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> ResourceVersions.of(informer.indexer().list())
                                .equals(ResourceVersions.of(direct.list().items())));
            }
            assertThat(overHttp2.get()).as("every watch went over HTTP/2").isEqualTo(watches.get());

            // the request timeout bounds a watch's head only: this one outlives it and ends when the server ends it
            try (Watch<DynamicObject> watch = viaH2.watch(ListOptions.builder()
                    .resourceVersion(direct.list().resourceVersion())
                    .timeout(Duration.ofSeconds(3))
                    .build())) {
                long start = System.nanoTime();
                assertThat(watch.next()).isEmpty();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));
            }
        }
    }
}
