package io.kubeloop.peers;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contender "fabric8" of kubeloop-bench's informer benchmark: fabric8 kubernetes-client 7.x's
 * {@code SharedIndexInformer} of typed {@code Pod}s in all namespaces (no resync, default list
 * options) with one counting handler, in its own JVM (fabric8 7.x is on Jackson 2). Arguments and
 * output: {@link InformerBenchReporter}.
 */
public final class Fabric8InformerChild {

    private Fabric8InformerChild() {}

    public static void main(String[] args) throws IOException {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        String kubeconfig = Files.readString(Path.of(args[0]));
        long pods = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        InformerBenchReporter r = new InformerBenchReporter();
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(kubeconfig))
                .build()) {
            SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().runnableInformer(0);
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod obj) {
                    r.added();
                }

                @Override
                public void onUpdate(Pod oldObj, Pod newObj) {
                    r.updated();
                }

                @Override
                public void onDelete(Pod obj, boolean deletedFinalStateUnknown) {}
            });
            r.baseline();
            r.started();
            informer.start();
            r.awaitSynced(informer::hasSynced, () -> informer.getStore().list().size());
            r.awaitAdds(pods);
            r.retainedHeap();
            r.awaitUpdatesAndFinish(events);
            informer.stop();
        } catch (RuntimeException e) {
            r.fail(e.toString());
        }
        System.exit(0);
    }
}
