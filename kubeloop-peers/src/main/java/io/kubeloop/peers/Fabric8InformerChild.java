package io.kubeloop.peers;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Contender "fabric8" of kubeloop-bench's informer benchmark: fabric8 kubernetes-client 7.x's
 * {@code SharedIndexInformer} of typed {@code Pod}s in all namespaces (no resync, default list
 * options) with one counting handler, in its own JVM (fabric8 7.x is on Jackson 2). Arguments and
 * output: {@link InformerBenchReporter}.
 */
public final class Fabric8InformerChild {

    private Fabric8InformerChild() {}

    public static void main(String[] args) throws IOException {
        measure(args, client -> client.pods().inAnyNamespace().runnableInformer(0));
    }

    /**
     * Runs the protocol of {@link InformerBenchReporter} for the informer {@code informerOf} makes (not
     * started), with {@code args} {@code <kubeconfig> <objects> <events>}, then exits.
     */
    static <T> void measure(String[] args, Function<KubernetesClient, SharedIndexInformer<T>> informerOf)
            throws IOException {
        Peers.quietJavaUtilLogging();
        String kubeconfig = Files.readString(Path.of(args[0]));
        long objects = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        InformerBenchReporter r = new InformerBenchReporter();
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(kubeconfig))
                .build()) {
            SharedIndexInformer<T> informer = informerOf.apply(client);
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(T obj) {
                    r.added();
                }

                @Override
                public void onUpdate(T oldObj, T newObj) {
                    r.updated();
                }

                @Override
                public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
            });
            r.baseline();
            r.started();
            informer.start();
            r.awaitSynced(informer::hasSynced, () -> informer.getStore().list().size());
            r.awaitAdds(objects);
            r.retainedHeap();
            r.awaitUpdatesAndFinish(events);
            informer.stop();
        } catch (RuntimeException e) {
            r.fail(e.toString());
        }
        System.exit(0);
    }
}
