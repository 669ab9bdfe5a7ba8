package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.peers.InformerBenchReporter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Contender "kubeloop": a {@link SharedIndexInformer} of {@link DynamicObject} Pods in all
 * namespaces with {@link InformerOptions#defaults()} (in-order queue, watch-list on, no transform,
 * no resync) and one counting handler. With a fourth argument {@code list} ("kubeloop-list") the
 * reflector lists instead ({@code useWatchList(false)}; the first list asks for resourceVersion
 * "0", which the server answers in one page, or in pages of 500 when the harness runs it with
 * {@code --paged-lists}). Further arguments: {@code unthrottled} turns the client-side rate limiter off,
 * {@code sequential} requests the pages one after another ({@code pagePrefetch(false)}), {@code models}
 * ("kubeloop-models") holds kubeloop's immutable {@link io.kubeloop.models.core.v1.Pod} records instead of
 * {@code DynamicObject}s. Protocol:
 * {@link InformerBenchReporter}.
 */
public final class KubeloopInformerChild {

    private KubeloopInformerChild() {}

    public static void main(String[] args) {
        Path kubeconfig = Path.of(args[0]);
        long pods = Long.parseLong(args[1]);
        long events = Long.parseLong(args[2]);
        List<String> flags = Arrays.asList(args).subList(Math.min(3, args.length), args.length);
        boolean list = flags.contains("list");
        InformerOptions options = list
                ? InformerOptions.builder()
                        .reflector(ReflectorOptions.builder()
                                .useWatchList(false)
                                .pagePrefetch(!flags.contains("sequential"))
                                .build())
                        .build()
                : InformerOptions.defaults();
        ClientOptions clientOptions = flags.contains("unthrottled")
                ? ClientOptions.builder().rateLimitingEnabled(false).build()
                : ClientOptions.defaults();
        InformerBenchReporter r = new InformerBenchReporter();
        try (KubeClient client = KubeClient.create(ClientConfig.fromKubeconfig(kubeconfig), clientOptions)) {
            if (flags.contains("models")) {
                measure(
                        SharedIndexInformer.create(
                                ListerWatcher.of(client.resource(io.kubeloop.models.core.v1.Pod.class)
                                        .inAnyNamespace()),
                                options),
                        pods,
                        events,
                        r);
                return;
            }
            ListerWatcher<DynamicObject> lw = ListerWatcher.of(client.resource(
                            new GroupVersionResource("", "v1", "pods"), ResourceScope.NAMESPACED, DynamicObject.class)
                    .inAnyNamespace());
            measure(SharedIndexInformer.create(lw, options), pods, events, r);
        } catch (RuntimeException e) {
            r.fail(e.toString());
        }
    }

    /**
     * The protocol of {@link InformerBenchReporter} for {@code informer} (not started): a counting
     * handler, the baseline, start, sync, adds, retained heap and updates; closes it at the end.
     */
    static <T> void measure(SharedIndexInformer<T> informer, long objects, long events, InformerBenchReporter r) {
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
        r.baseline();
        r.started();
        informer.start();
        r.awaitSynced(informer::hasSynced, () -> informer.indexer().listKeys().size());
        r.awaitAdds(objects);
        r.retainedHeap();
        r.awaitUpdatesAndFinish(events);
        informer.close();
    }
}
