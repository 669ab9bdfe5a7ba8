package io.kubeloop.bench.informer;

import io.kubeloop.peers.InformerBenchReporter;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Contender "k8s-java": kubernetes-client/java's {@code SharedInformerFactory} informer of typed
 * {@code V1Pod}s in all namespaces (no resync) over a {@code GenericKubernetesApi}, with one
 * counting handler. The client's read timeout is off so watches are not cut by it. Protocol:
 * {@link InformerBenchReporter}.
 */
public final class KubernetesJavaInformerChild {

    private KubernetesJavaInformerChild() {}

    public static void main(String[] args) throws IOException {
        Path kubeconfig = Path.of(args[0]);
        long pods = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        InformerBenchReporter r = new InformerBenchReporter();
        ApiClient client;
        try (Reader in = Files.newBufferedReader(kubeconfig)) {
            client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(in))
                    .setReadTimeout(Duration.ZERO)
                    .build();
        }
        GenericKubernetesApi<V1Pod, V1PodList> api =
                new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", client);
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(api, V1Pod.class, 0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1Pod obj) {
                r.added();
            }

            @Override
            public void onUpdate(V1Pod oldObj, V1Pod newObj) {
                r.updated();
            }

            @Override
            public void onDelete(V1Pod obj, boolean deletedFinalStateUnknown) {}
        });
        r.baseline();
        r.started();
        factory.startAllRegisteredInformers();
        r.awaitSynced(
                informer::hasSynced, () -> informer.getIndexer().listKeys().size());
        r.awaitAdds(pods);
        r.retainedHeap();
        r.awaitUpdatesAndFinish(events);
        factory.stopAllRegisteredInformers();
        System.exit(0);
    }
}
