package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.models.core.v1.ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A client with {@code http1Requests(true)} against the embedded API server over HTTPS: every kind of
 * request that is not streamed — create, get, update, status and merge patches, apply, list, delete —
 * behaves as over HTTP/2, errors come back as the same typed exceptions, watches keep working beside it,
 * and concurrent callers each get their own kept-alive connection.
 */
class Http1RequestsIntegrationTest extends EmbeddedServerTestBase {

    @Override
    protected ClientOptions clientOptions() {
        return ClientOptions.defaults().toBuilder().http1Requests(true).build();
    }

    private ResourceClient<ConfigMap> configMaps() {
        return client.resource(ConfigMap.class).inNamespace("default");
    }

    @Test
    void everyUnaryVerbWorksAndErrorsAreTyped() {
        ConfigMap created = configMaps()
                .create(ConfigMap.builder()
                        .metadata(m -> m.name("settings"))
                        .data(Map.of("mode", "fast"))
                        .build());
        assertThat(configMaps().get("settings").data()).containsEntry("mode", "fast");
        ConfigMap updated = configMaps()
                .update(created.toBuilder().data(Map.of("mode", "slow")).build());
        assertThat(updated.data()).containsEntry("mode", "slow");
        assertThatThrownBy(() -> configMaps()
                        .update(created.toBuilder().data(Map.of("mode", "x")).build()))
                .isInstanceOf(ConflictException.class);
        ConfigMap patched = configMaps().patch("settings", PatchType.MERGE, Map.of("data", Map.of("extra", "1")));
        assertThat(patched.data()).containsEntry("extra", "1").containsEntry("mode", "slow");
        assertThat(configMaps().list().items())
                .extracting(c -> c.metadata().name())
                .contains("settings");
        configMaps().delete("settings");
        assertThatThrownBy(() -> configMaps().get("settings")).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> configMaps().delete("settings")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aWatchSeesWhatConcurrentCallersWriteOverTheirOwnConnections() throws Exception {
        int writers = 6;
        int each = 20;
        try (Watch<ConfigMap> watch = configMaps().watch(ListOptions.none())) {
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < each; i++) {
                            String name = "cm-" + writer + "-" + i;
                            configMaps()
                                    .create(ConfigMap.builder()
                                            .metadata(m -> m.name(name))
                                            .build());
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            int added = 0;
            while (added < writers * each) {
                WatchEvent<ConfigMap> e = watch.next().orElse(null);
                if (e == null) {
                    break;
                }
                if (e instanceof WatchEvent.Added<ConfigMap>) {
                    added++;
                }
            }
            assertThat(added).isEqualTo(writers * each);
        }
        assertThat(configMaps().list().items()).hasSizeGreaterThanOrEqualTo(writers * each);
    }
}
