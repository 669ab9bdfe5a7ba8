package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.WatchStream;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.WriteOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * An informer on a real API server, through kubeloop's {@link KubeClient} only: after thousands of
 * random creates, updates and deletes from concurrent writers its cache equals the server's state;
 * after a forced 410 it relists and still converges; a model fed only by handler callbacks ends in
 * the same state.
 *
 * <p>The server is kubeloop's embedded API server over HTTPS, one per test.
 */
class InformerServerIntegrationTest {

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final int WRITERS = 4;
    private static final int WRITES_PER_WRITER = 750;
    private static final int NAMES = 200;

    private EmbeddedApiServer server;
    private KubeClient client;
    private ResourceClient<DynamicObject> cms;
    private final String namespace = "informer-it";

    @BeforeEach
    void connect() {
        server = EmbeddedApiServer.start();
        // The writers are the load here: no client-side throttling.
        client = KubeClient.create(
                server.clientConfig(),
                ClientOptions.builder().rateLimitingEnabled(false).build());
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, namespace)), WriteOptions.none());
        cms = client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(namespace);
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * Wraps a ListerWatcher so that the next watch ends with an ERROR 410 once {@link #gone} is set,
     * and counts relists: LISTs and watch-list streams ({@code sendInitialEvents=true}) alike.
     */
    static final class GoneInjector implements ListerWatcher<DynamicObject> {
        final ListerWatcher<DynamicObject> delegate;
        final AtomicBoolean gone = new AtomicBoolean();
        final AtomicInteger lists = new AtomicInteger();

        GoneInjector(ListerWatcher<DynamicObject> delegate) {
            this.delegate = delegate;
        }

        @Override
        public ObjectList<DynamicObject> list(ListOptions options) {
            lists.incrementAndGet();
            return delegate.list(options);
        }

        @Override
        public WatchStream<DynamicObject> watch(ListOptions options) {
            if (Boolean.TRUE.equals(options.sendInitialEvents())) {
                lists.incrementAndGet();
            }
            WatchStream<DynamicObject> w = delegate.watch(options);
            return new WatchStream<>() {
                @Override
                public Optional<WatchEvent<DynamicObject>> next() {
                    if (gone.compareAndSet(true, false)) {
                        return Optional.of(new WatchEvent.Error<>(Status.failure(410, "Expired", "injected")));
                    }
                    return w.next();
                }

                @Override
                public void close() {
                    w.close();
                }
            };
        }
    }

    private void randomWrites(long seed) throws Exception {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<?>[] writers = new Future<?>[WRITERS];
            for (int w = 0; w < WRITERS; w++) {
                SplittableRandom random = new SplittableRandom(seed + w);
                writers[w] = pool.submit(() -> {
                    for (int i = 0; i < WRITES_PER_WRITER; i++) {
                        String name = "cm-" + random.nextInt(NAMES);
                        try {
                            switch (random.nextInt(3)) {
                                case 0 ->
                                    cms.create(
                                            DynamicObject.of("v1", "ConfigMap", ObjectMeta.of(namespace, name)),
                                            WriteOptions.none());
                                case 1 ->
                                    cms.update(
                                            cms.get(name)
                                                    .edit(n -> ((ObjectNode) n)
                                                            .putObject("data")
                                                            .put("i", Integer.toString(random.nextInt()))),
                                            WriteOptions.none());
                                default -> cms.delete(name, DeleteOptions.none());
                            }
                        } catch (ApiException expected) {
                            // AlreadyExists, NotFound, Conflict: concurrent writers race, as intended
                        }
                    }
                    return null;
                });
            }
            for (Future<?> f : writers) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void convergesToTheServersStateAfterThousandsOfConcurrentWritesAndAfterAForced410() throws Exception {
        GoneInjector lw = new GoneInjector(ListerWatcher.of(cms));
        try (SharedIndexInformer<DynamicObject> informer = SharedIndexInformer.create(lw, InformerOptions.defaults())) {
            ResourceVersions.HandlerModel model = new ResourceVersions.HandlerModel();
            informer.addEventHandler(model);
            informer.start();
            assertThat(informer.waitForCacheSync(Duration.ofSeconds(30))).isTrue();

            randomWrites(1);
            Map<ObjectKey, String> expected = ResourceVersions.of(cms.list().items());
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ResourceVersions.of(informer.indexer().list()).equals(expected));
            await().atMost(Duration.ofSeconds(60)).until(() -> model.state.equals(expected));

            int listsBefore = lw.lists.get();
            lw.gone.set(true);
            randomWrites(2);
            Map<ObjectKey, String> after = ResourceVersions.of(cms.list().items());
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> lw.lists.get() > listsBefore
                            && ResourceVersions.of(informer.indexer().list()).equals(after));
            await().atMost(Duration.ofSeconds(60)).until(() -> model.state.equals(after));
            assertThat(informer.handlerErrors()).isZero();
        }
    }
}
