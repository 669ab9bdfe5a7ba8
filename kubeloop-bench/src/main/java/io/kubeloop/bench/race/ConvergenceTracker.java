package io.kubeloop.bench.race;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.KubeClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The harness's view of the race's namespace, from two informers of its own (Foos and Deployments),
 * and the moment every Foo is converged: a Foo is converged when its {@code spec.replicas} is the
 * expected value, its {@code status.availableReplicas} equals it, and the Deployment its
 * {@code spec.deploymentName} names exists, asks for those replicas and has the Foo (by uid) as its
 * controller. The moment is taken in the informer's handler that completes the set, so it is the
 * time the change reached a watching client.
 *
 * <p><b>Thread safety.</b> Thread-safe: the handlers and the harness's thread share the state under
 * one lock.
 */
final class ConvergenceTracker implements AutoCloseable {

    /** What the harness saw of one Foo. */
    private record FooView(String uid, String deploymentName, int specReplicas, int availableReplicas) {}

    /** What the harness saw of one Deployment. */
    private record DeploymentView(int replicas, String controllerUid) {}

    /**
     * How a phase ended.
     *
     * @param converged whether every Foo converged in time
     * @param atNanos {@link System#nanoTime()} when the last Foo converged (when converged)
     * @param count the Foos converged at the end
     */
    record Outcome(boolean converged, long atNanos, int count) {}

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, FooView> foos = new HashMap<>();
    private final Map<String, DeploymentView> deployments = new HashMap<>();
    private final Map<String, String> fooOfDeployment = new HashMap<>();
    private final Set<String> converged = new HashSet<>();
    private Map<String, Integer> expected = Map.of();
    private long allConvergedAt;
    private final SharedIndexInformer<DynamicObject> fooInformer;
    private final SharedIndexInformer<DynamicObject> deploymentInformer;

    /** Starts the two informers over {@code client} and waits for their sync. */
    ConvergenceTracker(KubeClient client) {
        fooInformer = informer(client, FooWorkload.FOOS.group(), FooWorkload.FOOS.version(), "foos");
        deploymentInformer = informer(client, "apps", "v1", "deployments");
        fooInformer.addEventHandler(handler(this::fooChanged, this::fooDeleted));
        deploymentInformer.addEventHandler(handler(this::deploymentChanged, o -> {}));
        fooInformer.start();
        deploymentInformer.start();
        if (!fooInformer.waitForCacheSync(Duration.ofMinutes(1))
                || !deploymentInformer.waitForCacheSync(Duration.ofMinutes(1))) {
            throw new IllegalStateException("the harness's informers did not sync");
        }
    }

    private static SharedIndexInformer<DynamicObject> informer(
            KubeClient client, String group, String version, String plural) {
        return SharedIndexInformer.create(
                ListerWatcher.of(client.resource(
                                new GroupVersionResource(group, version, plural),
                                ResourceScope.NAMESPACED,
                                DynamicObject.class)
                        .inNamespace(FooWorkload.NAMESPACE)),
                InformerOptions.defaults());
    }

    private static ResourceEventHandler<DynamicObject> handler(
            Consumer<DynamicObject> changed, Consumer<DynamicObject> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(DynamicObject object, boolean isInInitialList) {
                changed.accept(object);
            }

            @Override
            public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
                changed.accept(newObject);
            }

            @Override
            public void onDelete(DynamicObject object, boolean finalStateUnknown) {
                deleted.accept(object);
            }
        };
    }

    /** From now on, Foo name → the replicas it must reach; clears the moment of convergence. */
    void expect(Map<String, Integer> replicas) {
        lock.lock();
        try {
            expected = Map.copyOf(replicas);
            allConvergedAt = 0;
            converged.clear();
            for (String foo : expected.keySet()) {
                recompute(foo);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every expected Foo converged, or {@code timeout} ran out. */
    Outcome await(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (allConvergedAt == 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return new Outcome(false, 0, converged.size());
                }
                changed.await(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
            }
            return new Outcome(true, allConvergedAt, converged.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            lock.unlock();
        }
    }

    private void fooChanged(DynamicObject o) {
        String name = o.metadata().name();
        String deploymentName = o.node().path("spec").path("deploymentName").asString("");
        FooView view = new FooView(
                o.metadata().uid(),
                deploymentName,
                o.node().path("spec").path("replicas").asInt(-1),
                o.node().path("status").path("availableReplicas").asInt(0));
        lock.lock();
        try {
            FooView old = foos.put(name, view);
            if (old != null && !old.deploymentName().equals(deploymentName)) {
                fooOfDeployment.remove(old.deploymentName());
            }
            fooOfDeployment.put(deploymentName, name);
            recompute(name);
        } finally {
            lock.unlock();
        }
    }

    private void fooDeleted(DynamicObject o) {
        lock.lock();
        try {
            FooView old = foos.remove(o.metadata().name());
            if (old != null) {
                fooOfDeployment.remove(old.deploymentName());
            }
            recompute(o.metadata().name());
        } finally {
            lock.unlock();
        }
    }

    private void deploymentChanged(DynamicObject o) {
        String controllerUid = o.metadata().ownerReferencesOrEmpty().stream()
                .filter(OwnerReference::isController)
                .filter(r -> "Foo".equals(r.kind()))
                .map(OwnerReference::uid)
                .findFirst()
                .orElse(null);
        DeploymentView view =
                new DeploymentView(o.node().path("spec").path("replicas").asInt(-1), controllerUid);
        lock.lock();
        try {
            deployments.put(o.metadata().name(), view);
            String foo = fooOfDeployment.get(o.metadata().name());
            if (foo != null) {
                recompute(foo);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: whether {@code foo} is converged now; signals when the last one is. */
    private void recompute(String foo) {
        Integer want = expected.get(foo);
        if (want == null) {
            return;
        }
        FooView f = foos.get(foo);
        DeploymentView d = f == null ? null : deployments.get(f.deploymentName());
        boolean ok = f != null
                && d != null
                && f.specReplicas() == want
                && f.availableReplicas() == want
                && d.replicas() == want
                && Objects.equals(d.controllerUid(), f.uid());
        if (ok) {
            converged.add(foo);
        } else {
            converged.remove(foo);
        }
        if (converged.size() == expected.size() && allConvergedAt == 0) {
            allConvergedAt = System.nanoTime();
            changed.signalAll();
        }
    }

    @Override
    public void close() {
        fooInformer.close();
        deploymentInformer.close();
    }
}
