package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.util.OwnerReferences;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sample-controller reads <em>and writes</em> through the {@link FaultInjectingProxy} — its
 * Deployment creates and updates and its status writes meet cut responses (a create that succeeded
 * on the server while its answer was lost included), stalls, 429s, 500s and watch 410s — while Foos
 * are created, scaled and deleted directly on the server. In the end every Foo has its Deployment
 * at the Foo's replicas, controlled by that Foo, and reports them available; every Deployment of a
 * deleted Foo is gone.
 *
 * <p>The fault seed is printed; {@code -Dkubeloop.faults.seed=N} replays its choices.
 */
@Timeout(300)
class SampleControllerFaultTest extends EmbeddedServerTestBase {

    private static final String NS = "samples";
    private static final int FOOS = 12;
    private static final Set<String> EVERY_KIND = Set.of("cut", "stall", "reject-429", "reject-500", "watch-gone");

    private FaultInjectingProxy proxy;
    private KubeClient throughProxy;
    private SampleController sample;

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.builder().rateLimitingEnabled(false).build();
    }

    @AfterEach
    void stop() {
        if (sample != null) {
            sample.close();
        }
        if (throughProxy != null) {
            throughProxy.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kubeloop.it.FaultSeeds#seeds")
    void everyFooEndsWithItsDeploymentAtItsReplicasThroughFaultsOnReadsAndWrites(long seed) throws Exception {
        System.out.println("SampleControllerFaultTest seed " + seed + " (replay: -Dkubeloop.faults.seed=" + seed + ")");
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, NS)), WriteOptions.none());
        FooCrd.install(client, Duration.ofSeconds(30));
        proxy = FaultInjectingProxy.start(
                server.url(),
                server.clientConfig().sslContext(),
                FaultPlan.random(seed, 0.3, 8 * 1024, Duration.ofSeconds(1)),
                Duration.ofSeconds(2));
        throughProxy = KubeClient.create(proxy.clientConfig(server.token()), ClientOptions.defaults());
        sample = new SampleController(throughProxy);
        sample.start();

        ResourceClient<Foo> foos = client.resource(Foo.class).inNamespace(NS);
        ResourceClient<Deployment> deployments =
                client.resource(Deployment.class).inNamespace(NS);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < FOOS; i++) {
            foos.create(Foo.of(NS, "foo-" + i, "foo-" + i + "-nginx", 1 + random.nextInt(3)));
        }
        long start = System.nanoTime();
        int changes = 0;
        // at least 8 s of changes, and on (for at most a minute) until every kind of fault has happened
        while (System.nanoTime() - start < Duration.ofSeconds(8).toNanos()
                || !proxy.injected().keySet().containsAll(EVERY_KIND)
                        && System.nanoTime() - start < Duration.ofSeconds(60).toNanos()) {
            String name = "foo-" + random.nextInt(FOOS);
            try {
                switch (random.nextInt(4)) {
                    case 0 -> foos.delete(name);
                    case 1 -> foos.create(Foo.of(NS, name, name + "-nginx", 1 + random.nextInt(3)));
                    default ->
                        foos.patch(name, PatchType.MERGE, "{\"spec\":{\"replicas\":" + (1 + random.nextInt(4)) + "}}");
                }
                changes++;
            } catch (ApiException expected) {
                // NotFound, AlreadyExists (a Foo still being deleted included): random changes, as intended
            }
            Thread.sleep(random.nextInt(60));
        }
        System.out.println(
                "SampleControllerFaultTest: " + changes + " changes to Foos, faults injected " + proxy.injected());
        long converging = System.nanoTime();

        await().atMost(Duration.ofSeconds(180))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Map<String, Foo> byDeployment = new HashMap<>();
                    for (Foo foo : foos.list().items()) {
                        byDeployment.put(foo.spec().deploymentName(), foo);
                        assertThat(foo.status())
                                .as("status of %s (seed %d)", foo.metadata().name(), seed)
                                .isNotNull();
                        assertThat(foo.status().availableReplicas())
                                .as(
                                        "available replicas of %s (seed %d)",
                                        foo.metadata().name(), seed)
                                .isEqualTo(foo.spec().replicas());
                    }
                    Map<String, Integer> wanted = new HashMap<>();
                    byDeployment.forEach((deployment, foo) ->
                            wanted.put(deployment, foo.spec().replicas()));
                    Map<String, Integer> actual = new HashMap<>();
                    for (Deployment d : deployments.list().items()) {
                        if (d.getMetadata().getDeletionTimestamp() != null) {
                            continue; // being collected
                        }
                        actual.put(d.getMetadata().getName(), d.getSpec().getReplicas());
                        Foo owner = byDeployment.get(d.getMetadata().getName());
                        assertThat(owner)
                                .as("the Foo of %s (seed %d)", d.getMetadata().getName(), seed)
                                .isNotNull();
                        assertThat(OwnerReferences.controllerOf(d))
                                .map(OwnerReference::uid)
                                .as(
                                        "controller of %s (seed %d)",
                                        d.getMetadata().getName(), seed)
                                .hasValue(owner.metadata().uid());
                    }
                    assertThat(actual)
                            .as("Deployments and their replicas (seed %d)", seed)
                            .isEqualTo(wanted);
                });
        System.out.printf(
                "SampleControllerFaultTest: converged %d ms after the last change, faults injected %s%n",
                (System.nanoTime() - converging) / 1_000_000, proxy.injected());
        assertThat(proxy.injected())
                .as("reads and writes met every kind of fault (seed %d)", seed)
                .containsKeys(EVERY_KIND.toArray(String[]::new));
    }
}
