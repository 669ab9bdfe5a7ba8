package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ListAtZero;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.Reflector;
import io.kubeloop.cache.ReflectorOptions;
import io.kubeloop.cache.ReflectorStore;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.http.Interceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reflector's paged LIST against the embedded API server run without a watch cache
 * ({@code withListAtZero(ListAtZero.PAGED)}: lists at resourceVersion "0" honour {@code limit}): with page prefetch
 * and without, the store is replaced with exactly the list that {@code listAll} gathers — same items, same
 * order, the first page's resourceVersion — through the same requests, over the client's streamed list reads.
 */
class PagedListIntegrationTest {

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final int COUNT = 310;
    private static final int PAGE = 25;

    private EmbeddedApiServer server;
    private KubeClient client;
    private ResourceClient<DynamicObject> cms;
    private final List<String> listRequests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedApiServer.start(ServerOptions.defaults().withListAtZero(ListAtZero.PAGED));
        Interceptor recordLists = chain -> {
            String query = chain.request().uri().getRawQuery();
            if (chain.request().uri().getPath().endsWith("/configmaps") && query != null && query.contains("limit=")) {
                listRequests.add(query);
            }
            return chain.proceed(chain.request());
        };
        client = KubeClient.create(
                server.clientConfig(),
                ClientOptions.builder()
                        .rateLimitingEnabled(false)
                        .interceptors(List.of(recordLists))
                        .build());
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, "paged")), WriteOptions.none());
        cms = client.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace("paged");
        try (ExecutorService pool =
                Executors.newFixedThreadPool(16, Thread.ofVirtual().factory())) {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < COUNT; i++) {
                String name = String.format("cm-%04d", i);
                writes.add(pool.submit(() -> cms.create(
                        DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("paged", name)), WriteOptions.none())));
            }
            for (Future<?> f : writes) {
                f.get();
            }
        }
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Keeps the first replace. */
    private static final class FirstReplace implements ReflectorStore<DynamicObject> {
        volatile List<DynamicObject> objects;
        volatile String resourceVersion;

        @Override
        public void add(DynamicObject object) {}

        @Override
        public void update(DynamicObject object) {}

        @Override
        public void delete(DynamicObject object) {}

        @Override
        public void replace(List<DynamicObject> list, String rv) {
            if (objects == null) {
                resourceVersion = rv;
                objects = List.copyOf(list);
            }
        }

        @Override
        public void resync() {}
    }

    private FirstReplace sync(boolean prefetch) {
        FirstReplace store = new FirstReplace();
        try (Reflector<DynamicObject> reflector = new Reflector<>(
                ListerWatcher.of(cms),
                store,
                ReflectorOptions.builder()
                        .name("paged-" + prefetch)
                        .useWatchList(false)
                        .pageSize(PAGE)
                        .pagePrefetch(prefetch)
                        .build())) {
            reflector.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> store.objects != null);
        }
        return store;
    }

    @Test
    void prefetchedAndSequentialPagingReplaceTheStoreWithTheSameListAsListAll() {
        ObjectList<DynamicObject> all = cms.listAll(
                ListOptions.builder().resourceVersion("0").limit(PAGE).build());
        assertThat(all.items()).hasSize(COUNT);
        listRequests.clear();

        FirstReplace sequential = sync(false);
        List<String> sequentialRequests = List.copyOf(listRequests);
        listRequests.clear();
        FirstReplace prefetched = sync(true);
        List<String> prefetchedRequests = List.copyOf(listRequests);

        int pages = (COUNT + PAGE - 1) / PAGE;
        assertThat(sequentialRequests).hasSize(pages);
        assertThat(prefetchedRequests).hasSize(pages);
        assertThat(prefetchedRequests.get(0)).contains("resourceVersion=0");
        assertThat(prefetchedRequests.subList(1, pages))
                .allSatisfy(q -> assertThat(q).contains("continue="));
        assertThat(sequential.objects).containsExactlyElementsOf(all.items());
        assertThat(prefetched.objects).containsExactlyElementsOf(all.items());
        assertThat(prefetched.objects)
                .extracting(ObjectAccess::name)
                .containsExactlyElementsOf(
                        all.items().stream().map(ObjectAccess::name).toList());
        assertThat(sequential.resourceVersion).isEqualTo(all.resourceVersion());
        assertThat(prefetched.resourceVersion).isEqualTo(all.resourceVersion());
    }

    @Test
    void withoutAWatchCacheAListAtZeroIsPagedAndWithOneItIsWhole() {
        ListOptions zero =
                ListOptions.builder().resourceVersion("0").limit(PAGE).build();
        assertThat(cms.list(zero).items()).hasSize(PAGE);
        assertThat(cms.list(zero).hasMore()).isTrue();
        try (EmbeddedApiServer cached = EmbeddedApiServer.start();
                KubeClient c = KubeClient.create(cached.clientConfig(), ClientOptions.defaults())) {
            ResourceClient<DynamicObject> defaults = c.resource(
                            CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class)
                    .inNamespace("default");
            for (int i = 0; i < 3; i++) {
                defaults.create(
                        DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", "c" + i)), WriteOptions.none());
            }
            ObjectList<DynamicObject> whole = defaults.list(
                    ListOptions.builder().resourceVersion("0").limit(1).build());
            assertThat(whole.hasMore()).isFalse();
            assertThat(whole.items()).hasSize(3);
        }
    }
}
