package io.kubeloop.bench.race;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;

/**
 * The harness's side of the race: the namespace, then {@code n} Foos created (and later rescaled) as
 * fast as the harness can send them — {@code concurrency} requests in flight at once over the
 * harness's kubeloop client (rate limiting off). Foo {@code i} is named {@code foo-<i>}, asks for the
 * Deployment {@code foo-<i>-nginx} and for {@code 1 + i % 3} replicas at creation and
 * {@code 3 + i % 3} after {@link #scale}.
 *
 * <p><b>Thread safety.</b> For the harness's main thread.
 */
final class FooWorkload {

    static final String NAMESPACE = "race";
    static final GroupVersionResource FOOS = new GroupVersionResource("samplecontroller.k8s.io", "v1alpha1", "foos");
    static final GroupVersionResource DEPLOYMENTS = new GroupVersionResource("apps", "v1", "deployments");

    private final ResourceClient<DynamicObject> foos;
    private final int n;
    private final int concurrency;

    FooWorkload(KubeClient client, int n, int concurrency) {
        this.foos = client.resource(FOOS, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(NAMESPACE);
        this.n = n;
        this.concurrency = concurrency;
    }

    /** Creates the race's namespace. */
    static void createNamespace(KubeClient client) {
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, NAMESPACE)));
    }

    static String name(int i) {
        return String.format(Locale.ROOT, "foo-%05d", i);
    }

    static String deploymentName(int i) {
        return name(i) + "-nginx";
    }

    static int createdReplicas(int i) {
        return 1 + i % 3;
    }

    static int scaledReplicas(int i) {
        return 3 + i % 3;
    }

    /** Foo name → replicas after {@link #create}. */
    Map<String, Integer> afterCreate() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(name(i), createdReplicas(i));
        }
        return m;
    }

    /** Foo name → replicas after {@link #scale}. */
    Map<String, Integer> afterScale() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(name(i), scaledReplicas(i));
        }
        return m;
    }

    /** Creates the {@code n} Foos; returns when every create was answered. */
    void create() {
        run(i -> foos.create(
                DynamicObject.parse("""
                {"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo",
                 "metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"deploymentName":"%s","replicas":%d}}""".formatted(name(i), NAMESPACE, deploymentName(i), createdReplicas(i)))));
    }

    /** Sets every Foo's {@code spec.replicas} to its scaled value (a merge patch each). */
    void scale() {
        run(i -> foos.patch(name(i), PatchType.MERGE, "{\"spec\":{\"replicas\":" + scaledReplicas(i) + "}}"));
    }

    private void run(IntConsumer request) {
        Semaphore inFlight = new Semaphore(concurrency);
        List<Future<?>> sent = new ArrayList<>(n);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                int index = i;
                inFlight.acquireUninterruptibly();
                sent.add(threads.submit(() -> {
                    try {
                        request.accept(index);
                    } finally {
                        inFlight.release();
                    }
                }));
            }
        }
        for (Future<?> f : sent) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a harness request failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
