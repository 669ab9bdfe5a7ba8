package io.kubeloop.peers;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * fabric8 kubernetes-client 7.x's {@code SharedIndexInformer} for the ConfigMaps of one namespace, run
 * in its own JVM as a peer (see {@link InformerPeer}); prints {@link InformerEvents} lines and stops
 * when its stdin closes.
 *
 * <p>Arguments: {@code KUBECONFIG NAMESPACE [--http-watches]}. Without the flag fabric8 watches over
 * WebSocket (its default); with it, over chunked HTTP ({@code Config.onlyHttpWatches}).
 */
public final class Fabric8InformerMain {

    private Fabric8InformerMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[2].equals("--http-watches"))) {
            System.err.println("usage: Fabric8InformerMain KUBECONFIG NAMESPACE [--http-watches]");
            System.exit(2);
        }
        Peers.quietJavaUtilLogging();
        InformerEvents events = new InformerEvents(System.out);
        Path kubeconfig = Path.of(args[0]);
        Config config = Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
        config.setOnlyHttpWatches(args.length == 3);
        try (KubernetesClient client =
                new KubernetesClientBuilder().withConfig(config).build()) {
            SharedIndexInformer<ConfigMap> informer =
                    client.configMaps().inNamespace(args[1]).runnableInformer(0);
            informer.addEventHandler(new ResourceEventHandler<ConfigMap>() {
                @Override
                public void onAdd(ConfigMap cm) {
                    events.event("ADD", cm.getMetadata().getName(), cm.getData());
                }

                @Override
                public void onUpdate(ConfigMap old, ConfigMap cm) {
                    events.event("UPDATE", cm.getMetadata().getName(), cm.getData());
                }

                @Override
                public void onDelete(ConfigMap cm, boolean finalStateUnknown) {
                    events.event("DELETE", cm.getMetadata().getName(), cm.getData());
                }
            });
            informer.start().whenComplete((ok, failure) -> {
                if (failure != null) {
                    events.error(failure);
                }
            });
            events.mark("STARTED");
            Peers.reportSynced(informer::hasSynced, events);
            Peers.awaitStdinClosed();
            informer.stop();
            informer.stopped().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            events.error(e);
        }
        System.exit(0);
    }
}
