package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.bench.generated.argocd.v1alpha1.Application;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ResourceEventHandler;
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
            SharedIndexInformer<?> informer = switch (args[3]) {
                case "records" ->
                    informer(ListerWatcher.of(client.resource(Application.class).inAnyNamespace()), r);
                case "dynamic" ->
                    informer(
                            ListerWatcher.of(client.resource(
                                            new GroupVersionResource("argoproj.io", "v1alpha1", "applications"),
                                            ResourceScope.NAMESPACED,
                                            DynamicObject.class)
                                    .inAnyNamespace()),
                            r);
                default -> throw new IllegalArgumentException("unknown mode " + args[3]);
            };
            r.baseline();
            r.started();
            informer.start();
            r.awaitSynced(
                    informer::hasSynced, () -> informer.indexer().listKeys().size());
            r.awaitAdds(objects);
            r.retainedHeap();
            r.awaitUpdatesAndFinish(events);
            informer.close();
        } catch (RuntimeException e) {
            r.fail(e.toString());
        }
    }

    private static <T> SharedIndexInformer<T> informer(ListerWatcher<T> lw, InformerBenchReporter r) {
        SharedIndexInformer<T> informer = SharedIndexInformer.create(lw, InformerOptions.defaults());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object, boolean isInInitialList) {
                r.added();
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                r.updated();
            }
        });
        return informer;
    }
}
