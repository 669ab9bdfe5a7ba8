package io.kubeloop.peers;

import io.argoproj.v1alpha1.Application;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contender "fabric8" of kubeloop-bench's typed-cache benchmark: fabric8 kubernetes-client 7.x's
 * {@code SharedIndexInformer} of Argo CD {@code Application}s in all namespaces, typed with the model
 * classes fabric8's java-generator wrote from the Application CRD during this module's build (no
 * resync, default list options), with one counting handler. Arguments {@code <kubeconfig> <objects>
 * <events>} and output: {@link InformerBenchReporter}.
 */
public final class Fabric8TypedInformerChild {

    private Fabric8TypedInformerChild() {}

    public static void main(String[] args) throws IOException {
        Peers.quietJavaUtilLogging();
        String kubeconfig = Files.readString(Path.of(args[0]));
        long objects = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        InformerBenchReporter r = new InformerBenchReporter();
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(kubeconfig))
                .build()) {
            SharedIndexInformer<Application> informer =
                    client.resources(Application.class).inAnyNamespace().runnableInformer(0);
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Application obj) {
                    r.added();
                }

                @Override
                public void onUpdate(Application oldObj, Application newObj) {
                    r.updated();
                }

                @Override
                public void onDelete(Application obj, boolean deletedFinalStateUnknown) {}
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
