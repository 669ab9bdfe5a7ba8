package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.Lister;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing is lost when the path between clients and the API server misbehaves: an informer and a
 * controller read through a {@link FaultInjectingProxy} that cuts responses off mid-stream, stalls
 * them, answers 429 and 500 with Retry-After, and ends watches with 410 Expired (each at least
 * three times), while a writer
 * changes ConfigMaps directly on the server. Afterwards the informer's cache equals the server's
 * state, so does a model fed only by its event handlers, no update ever went back in time, and the
 * controller reconciled every object after its last change (it saw each surviving object at its
 * final resourceVersion and each deleted one as gone).
 *
 * <p>Two phases: first every kind of fault (410s make clients relist, which repairs anything); then
 * only faults after which clients resume their watches (late cuts, stalls, 429s) while writes go on,
 * so an event lost on resumption is never repaired — the check fails against a reflector that drops
 * the first event of each watch.
 *
 * <p>The fault seed is random per run and printed; set {@code -Dkubeloop.faults.seed=N} to replay,
 * and {@code -Dkubeloop.faults.trace=true} in the test JVM to print every request and its fault.
 */
@Timeout(420)
class FaultInjectionIntegrationTest extends FaultProxyTestBase {

    private static final String NAMESPACE = "faults";
    private static final int NAMES = 60;
    private static final int MIN_WRITES = 600;
    private static final Set<String> EVERY_KIND = Set.of("cut", "stall", "reject-429", "reject-500", "watch-gone");
    /** How many times each kind of fault must have happened before the first phase ends. */
    private static final int FAULT_ROUNDS = 3;

    private ConfigMapChurn churn;

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.builder().rateLimitingEnabled(false).build();
    }

    @BeforeEach
    void startProxy() {
        churn = new ConfigMapChurn(client, NAMESPACE, NAMES);
    }

    private boolean everyKindInjected(int times) {
        Map<String, Long> injected = proxy.injected();
        return EVERY_KIND.stream().allMatch(kind -> injected.getOrDefault(kind, 0L) >= times);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kubeloop.it.FaultSeeds#seeds")
    void informerAndControllerConvergeAndReconcileEveryLastChangeThroughInjectedFaults(long seed) throws Exception {
        System.out.println(
                "FaultInjectionIntegrationTest seed " + seed + " (replay: -Dkubeloop.faults.seed=" + seed + ")");
        proxy = FaultInjectingProxy.start(
                server.url(),
                server.clientConfig().sslContext(),
                FaultPlan.random(seed, 0.5, 16 * 1024, Duration.ofSeconds(2)),
                Duration.ofSeconds(1));
        throughProxy = KubeClient.create(
                proxy.clientConfig(server.token()),
                ClientOptions.builder().rateLimitingEnabled(false).build());

        ResourceVersions.HandlerModel model = new ResourceVersions.HandlerModel();
        ResourceClient<DynamicObject> proxiedCms = churn.configMaps(throughProxy);
        try (SharedIndexInformer<DynamicObject> informer =
                        SharedIndexInformer.create(ListerWatcher.of(proxiedCms), InformerOptions.defaults());
                InformerFactory factory = InformerFactory.create(throughProxy, InformerOptions.defaults())) {
            informer.addEventHandler(model);
            Lister<ConfigMap> lister = factory.listerFor(ConfigMap.class, InformerScope.all());
            try (Controller controller =
                    ControllerBuilder.forResource(ConfigMap.class).build(factory, churn.recordingReconciler(lister))) {
                informer.start();
                factory.start();
                controller.start(); // waits for the caches: through the faults too

                SplittableRandom random = new SplittableRandom(seed);
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                int writes = 0;
                while ((writes < MIN_WRITES || !everyKindInjected(FAULT_ROUNDS)) && System.nanoTime() < deadline) {
                    churn.writeOnce(random);
                    writes++;
                    if (writes % 10 == 0) {
                        Thread.sleep(random.nextInt(40)); // bursts, and time for watches between them
                    }
                }
                System.out.println(
                        "FaultInjectionIntegrationTest: " + writes + " writes, faults injected " + proxy.injected());
                assertThat(everyKindInjected(FAULT_ROUNDS))
                        .as(
                                "every kind of fault was injected %d times (seed %d): %s",
                                FAULT_ROUNDS, seed, proxy.injected())
                        .isTrue();

                // Phase two: only faults after which a client resumes its watch from the last
                // resourceVersion (cuts at least 1.2 s into a response, stalls, 429s), watches of 2 s (not a borderline
                // "very short
                // watch"), and more writes meanwhile. Nothing makes the clients relist, so an event lost
                // while a watch is resumed is never repaired by a fresh list: the caches must get every
                // last change from resumed watches alone.
                proxy.maxWatch(Duration.ofSeconds(2));
                proxy.plan(FaultPlan.random(
                        seed + 1, 0.7, 4 * 1024, Duration.ofSeconds(1), List.of("late-cut", "stall", "reject-429")));
                Duration settling = churn.awaitConvergence( // past any relist and back-off
                        informer, model, Duration.ofSeconds(120), "after the first phase", seed);
                System.out.printf(
                        "FaultInjectionIntegrationTest: converged %d ms after the first phase%n", settling.toMillis());
                Map<String, Long> before = proxy.injected();
                long phaseTwoEnd = System.nanoTime() + Duration.ofSeconds(6).toNanos();
                int resumedWrites = 0;
                while (System.nanoTime() < phaseTwoEnd) {
                    churn.writeOnce(random);
                    resumedWrites++;
                    Thread.sleep(random.nextInt(20));
                }
                Map<String, Long> during = new TreeMap<>(proxy.injected());
                before.forEach((kind, n) -> during.merge(kind, -n, Long::sum));
                System.out.println("FaultInjectionIntegrationTest: then " + resumedWrites
                        + " writes under resume-only faults " + during);
                Duration converging =
                        churn.awaitConvergence(informer, model, Duration.ofSeconds(120), "after resumed watches", seed);
                System.out.printf(
                        "FaultInjectionIntegrationTest: converged %d ms after the last write%n", converging.toMillis());
                assertThat(model.backwards)
                        .as("updates that went back in time (seed %d)", seed)
                        .isEmpty();
            }
        }
    }
}
