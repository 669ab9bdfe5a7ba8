package io.kubeloop.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.client.KubeClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The informer example of docs/informers.md, compiled with the tests. {@link #main} runs it against the cluster of
 * the current kubeconfig; {@code CacheExampleTest} runs {@link #run} against a FakeListerWatcher.
 */
public final class CacheExample {

    private CacheExample() {}

    public static void main(String[] args) throws Exception {
        try (KubeClient client = KubeClient.create()) {
            ListerWatcher<DynamicObject> pods = ListerWatcher.of(client.resource(
                            new GroupVersionResource("", "v1", "pods"), ResourceScope.NAMESPACED, DynamicObject.class)
                    .inAnyNamespace());
            System.out.println(run(pods, Duration.ofSeconds(30)));
        }
    }

    /** Starts an informer with an extra index, a lister and a handler; returns the web pods per node. */
    static Map<String, List<String>> run(ListerWatcher<DynamicObject> pods, Duration timeout) {
        try (SharedIndexInformer<DynamicObject> informer =
                SharedIndexInformer.create(pods, InformerOptions.defaults())) {
            // 1. an index of pods by node, next to the built-in namespace index
            informer.addIndexers(Map.of(
                    "node",
                    pod -> pod.at("/spec/nodeName")
                            .map(n -> List.of(n.asString()))
                            .orElse(List.of())));
            // 2. managedFields are a third of a Pod and never read by controllers: drop them before caching
            informer.setTransform(Transforms.stripManagedFields());
            // 3. a handler: called on its own thread, in order; a slow one delays nobody else
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(DynamicObject pod, boolean isInInitialList) {
                    System.out.println("added " + ObjectAccess.key(pod) + (isInInitialList ? " (initial list)" : ""));
                }

                @Override
                public void onUpdate(DynamicObject oldPod, DynamicObject newPod) {
                    System.out.println("updated " + ObjectAccess.key(newPod));
                }

                @Override
                public void onDelete(DynamicObject pod, boolean finalStateUnknown) {
                    System.out.println("deleted " + ObjectAccess.key(pod));
                }
            });
            informer.start();
            if (!informer.waitForCacheSync(timeout)) {
                throw new IllegalStateException("pods did not sync within " + timeout);
            }
            // 4. read the cache: a lister (no API calls) and the index
            Lister<DynamicObject> lister = Lister.create(informer.indexer(), new GroupResource("", "pods"));
            List<DynamicObject> web = lister.namespace("shop").list(LabelSelector.parse("app=web"));
            Map<String, List<String>> perNode = new TreeMap<>();
            for (DynamicObject pod : web) {
                for (String node : informer.indexer().indexers().get("node").values(pod)) {
                    perNode.put(
                            node,
                            informer.indexer().byIndex("node", node).stream()
                                    .map(ObjectAccess::name)
                                    .sorted()
                                    .toList());
                }
            }
            return perNode;
        }
    }
}
