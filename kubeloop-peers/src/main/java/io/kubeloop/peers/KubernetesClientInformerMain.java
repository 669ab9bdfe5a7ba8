package io.kubeloop.peers;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.time.Duration;

/**
 * kubernetes-client/java's {@code SharedIndexInformer} (from a {@code SharedInformerFactory} with a
 * {@code CallGenerator} over {@code CoreV1Api.listNamespacedConfigMap}) for the ConfigMaps of one
 * namespace, run in its own JVM as a peer (see {@link InformerPeer}); prints {@link InformerEvents}
 * lines and stops when its stdin closes.
 *
 * <p>Arguments: {@code KUBECONFIG NAMESPACE}.
 */
public final class KubernetesClientInformerMain {

    private KubernetesClientInformerMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: KubernetesClientInformerMain KUBECONFIG NAMESPACE");
            System.exit(2);
        }
        Peers.quietJavaUtilLogging();
        InformerEvents events = new InformerEvents(System.out);
        String namespace = args[1];
        ApiClient client = Config.fromConfig(args[0]);
        // Watches are long requests: no read timeout (the client's own informer examples do the same).
        client.setHttpClient(
                client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
        CoreV1Api api = new CoreV1Api(client);
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
                params -> api.listNamespacedConfigMap(namespace)
                        .resourceVersion(params.resourceVersion)
                        .watch(params.watch)
                        .timeoutSeconds(params.timeoutSeconds)
                        .allowWatchBookmarks(Boolean.TRUE.equals(params.watch) ? Boolean.TRUE : null)
                        .buildCall(null),
                V1ConfigMap.class,
                V1ConfigMapList.class,
                0L,
                (type, failure) -> events.error(failure));
        informer.addEventHandler(new ResourceEventHandler<V1ConfigMap>() {
            @Override
            public void onAdd(V1ConfigMap cm) {
                events.event("ADD", cm.getMetadata().getName(), cm.getData());
            }

            @Override
            public void onUpdate(V1ConfigMap old, V1ConfigMap cm) {
                events.event("UPDATE", cm.getMetadata().getName(), cm.getData());
            }

            @Override
            public void onDelete(V1ConfigMap cm, boolean finalStateUnknown) {
                events.event("DELETE", cm.getMetadata().getName(), cm.getData());
            }
        });
        factory.startAllRegisteredInformers();
        events.mark("STARTED");
        Peers.reportSynced(informer::hasSynced, events);
        Peers.awaitStdinClosed();
        factory.stopAllRegisteredInformers(true);
        System.exit(0);
    }
}
