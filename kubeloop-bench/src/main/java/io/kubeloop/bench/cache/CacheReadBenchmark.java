package io.kubeloop.bench.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.bench.informer.PodGenerator;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.client.Client;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code get} from a controller's cache through the manager's cache-backed client, for one Pod of
 * {@link PodGenerator}'s (about 4 KB of JSON: two containers with probes and resources, volumes, status,
 * managed fields, status; stored as generated) held by an informer of each type:
 * <ul>
 *   <li>{@code modelGet}: kubeloop's immutable {@code io.kubeloop.models.core.v1.Pod}, which the cache hands
 *       out as it is;
 *   <li>{@code fabric8GetAndDeepCopy}: fabric8's mutable {@code Pod}, which the cache deep-copies on every
 *       read as controller-runtime does ({@code DeepCopyObject} on each {@code Get}).
 * </ul>
 * Both go through the same lookup (the informer's indexer by namespace and name); the difference is the
 * copy. The embedded API server serves the Pod over HTTPS; the informers sync before measuring.
 *
 * <p>Run: {@code java -cp kubeloop-bench/target/classes:$(cat kubeloop-bench/target/bench.classpath)
 * org.openjdk.jmh.Main CacheReadBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g", "-XX:+UseG1GC"})
public class CacheReadBenchmark {

    private EmbeddedApiServer server;
    private KubeClient kube;
    private Manager manager;
    private Client client;
    private ObjectKey key;

    @Setup(Level.Trial)
    public void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        kube = KubeClient.create(server.clientConfig(), io.kubeloop.client.ClientOptions.defaults());
        kube.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + PodGenerator.namespace(0) + "\"}}"));
        server.load(java.util.List.of(PodGenerator.pod(0))); // exactly the generator's Pod, status included
        key = ObjectKey.of(PodGenerator.namespace(0), PodGenerator.name(0));
        // the whole Pod in the cache, managedFields included, so the deep copy walks all of it
        manager = Manager.create(
                kube,
                ManagerOptions.defaults()
                        .withCache(io.kubeloop.controller.client.CacheOptions.defaults()
                                .keepingManagedFields()));
        client = manager.client();
        // both informers started and synced; each read below is a cache read
        if (client.get(io.kubeloop.models.core.v1.Pod.class, key)
                                .spec()
                                .containers()
                                .size()
                        != 2
                || client.get(io.fabric8.kubernetes.api.model.Pod.class, key)
                                .getSpec()
                                .getContainers()
                                .size()
                        != 2) {
            throw new IllegalStateException("the cached Pod is not PodGenerator's");
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        manager.close();
        kube.close();
        server.close();
    }

    @Benchmark
    public Object modelGet() {
        return client.get(io.kubeloop.models.core.v1.Pod.class, key);
    }

    @Benchmark
    public Object fabric8GetAndDeepCopy() {
        return client.get(io.fabric8.kubernetes.api.model.Pod.class, key);
    }
}
