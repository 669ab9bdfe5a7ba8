package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.bench.generated.argocd.v1alpha1.Application;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.peers.InformerBenchReporter;
import java.nio.file.Path;

/**
 * The kubeloop contenders of the typed-cache benchmark: a {@link SharedIndexInformer} of Argo CD
 * Applications in all namespaces with {@link InformerOptions#defaults()} and one counting handler,
 * holding either the records that kubeloop's {@code generate-models} goal wrote from the
 * Application CRD during this module's build ({@code records}) or {@link DynamicObject}s
 * ({@code dynamic}). Arguments: {@code <kubeconfig> <objects> <events> records|dynamic}; protocol:
 * {@link InformerBenchReporter}.
 */
public final class TypedInformerChild {

    private TypedInformerChild() {}

    public static void main(String[] args) {
        Path kubeconfig = Path.of(args[0]);
        long objects = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        InformerBenchReporter r = new InformerBenchReporter();
        try (KubeClient client = KubeClient.create(ClientConfig.fromKubeconfig(kubeconfig), ClientOptions.defaults())) {
            switch (args[3]) {
                case "records" ->
                    KubeloopInformerChild.measure(
                            SharedIndexInformer.create(
                                    ListerWatcher.of(
                                            client.resource(Application.class).inAnyNamespace()),
                                    InformerOptions.defaults()),
                            objects,
                            events,
                            r);
                case "dynamic" ->
                    KubeloopInformerChild.measure(
                            SharedIndexInformer.create(
                                    ListerWatcher.of(client.resource(
                                                    new GroupVersionResource("argoproj.io", "v1alpha1", "applications"),
                                                    ResourceScope.NAMESPACED,
                                                    DynamicObject.class)
                                            .inAnyNamespace()),
                                    InformerOptions.defaults()),
                            objects,
                            events,
                            r);
                default -> throw new IllegalArgumentException("unknown mode " + args[3]);
            }
        } catch (RuntimeException e) {
            r.fail(e.toString());
        }
    }
}
