package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.cache.Lister;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The workload of the fault tests: random creates, updates and deletes of a fixed set of ConfigMap
 * names in a namespace of their own, written straight to the server; a reconciler that records the
 * resourceVersion at which it last saw each key; and the check that an informer's cache, a model fed
 * by its handler and that reconciler have all caught up with the server.
 *
 * <p>Thread safety: {@link #writeOnce} is called from one thread at a time; the reconciler runs on
 * any thread; the check reads thread-safe maps.
 */
final class ConfigMapChurn {

    static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    /** What the reconciler records for a key whose object it did not find. */
    private static final String ABSENT = "<absent>";

    private final String namespace;
    private final int names;
    private final ResourceClient<DynamicObject> direct;
    private final Map<ObjectKey, String> reconciled = new ConcurrentHashMap<>();

    /**
     * Creates {@code namespace} through {@code client}, which then makes every write and reads the
     * server's state.
     *
     * @param names how many ConfigMap names the writes pick from
     */
    ConfigMapChurn(KubeClient client, String namespace, int names) {
        this.namespace = namespace;
        this.names = names;
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, namespace)), WriteOptions.none());
        this.direct = configMaps(client);
    }

    /** The namespace's ConfigMaps through {@code client}. */
    ResourceClient<DynamicObject> configMaps(KubeClient client) {
        return client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(namespace);
    }

    /** One create, update or delete of a random name; conflicts with the name's state are part of the plan. */
    void writeOnce(SplittableRandom random) {
        String name = "cm-" + random.nextInt(names);
        try {
            switch (random.nextInt(3)) {
                case 0 ->
                    direct.create(
                            DynamicObject.of("v1", "ConfigMap", ObjectMeta.of(namespace, name)), WriteOptions.none());
                case 1 ->
                    direct.update(
                            direct.get(name)
                                    .edit(n -> n.putObject("data").put("i", Integer.toString(random.nextInt()))),
                            WriteOptions.none());
                default -> direct.delete(name, DeleteOptions.none());
            }
        } catch (ApiException expected) {
            // AlreadyExists, NotFound: random operations on random names, as intended
        }
    }

    /** A reconciler that records, per key, the resourceVersion {@code lister} held when it ran. */
    Reconciler recordingReconciler(Lister<ConfigMap> lister) {
        return (Request r, ReconcileContext context) -> {
            String seen;
            try {
                seen = lister.namespace(r.namespace())
                        .get(r.name())
                        .getMetadata()
                        .getResourceVersion();
            } catch (NotFoundException gone) {
                seen = ABSENT;
            }
            reconciled.put(r.key(), seen);
            return Result.done();
        };
    }

    /**
     * Waits at most {@code bound} until the informer's cache and the handler-fed model equal the
     * server's ConfigMaps and the reconciler last saw each key at its final state (a deleted key:
     * absent).
     *
     * @return how long it took
     */
    Duration awaitConvergence(
            SharedIndexInformer<DynamicObject> informer,
            ResourceVersions.HandlerModel model,
            Duration bound,
            String when,
            long seed) {
        long start = System.nanoTime();
        Map<ObjectKey, String> expected = ResourceVersions.of(direct.list().items());
        await().atMost(bound).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(ResourceVersions.of(informer.indexer().list()))
                    .as("informer cache %s (seed %d)", when, seed)
                    .isEqualTo(expected);
            assertThat(model.state)
                    .as("handler-fed model %s (seed %d)", when, seed)
                    .isEqualTo(expected);
            Map<ObjectKey, String> last = new HashMap<>(expected);
            reconciled.forEach((key, seen) -> {
                if (!expected.containsKey(key)) {
                    last.put(key, ABSENT);
                }
            });
            assertThat(reconciled)
                    .as("last state each key was reconciled at %s (seed %d)", when, seed)
                    .isEqualTo(last);
        });
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
