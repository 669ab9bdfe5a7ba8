package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.storage.Change;
import io.kubeloop.apiserver.internal.storage.StoreOptions;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.cache.WatchStream;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.WatchEvent;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The in-process lister-watcher over a real store. */
class StoreListerWatcherTest {

    private final VersionedStore store = VersionedStore.inMemory(StoreOptions.defaults());
    private final StoreListerWatcher lw = new StoreListerWatcher(store, "/configmaps", "v1", "ConfigMap");

    @AfterEach
    void close() {
        store.close();
    }

    private void put(String ns, String name, String owner) {
        ObjectNode o = KubeJson.mapper().createObjectNode();
        ObjectNode meta =
                o.putObject("metadata").put("namespace", ns).put("name", name).put("uid", "uid-" + name);
        if (owner != null) {
            meta.putArray("ownerReferences")
                    .addObject()
                    .put("apiVersion", "v1")
                    .put("kind", "ConfigMap")
                    .put("name", owner)
                    .put("uid", "uid-" + owner)
                    .put("blockOwnerDeletion", true);
        }
        store.write("/configmaps", ns + "/" + name, cur -> Change.put(o));
    }

    @Test
    void listReturnsEveryNamespaceAsMetadataWithTheStoreRevision() {
        put("a", "x", null);
        put("b", "y", "x");
        ObjectList<ObjectMetadata> list = lw.list(ListOptions.none());
        assertThat(list.resourceVersion()).isEqualTo(Long.toString(store.currentRevision()));
        assertThat(list.items()).extracting(ObjectMetadata::uid).containsExactly("uid-x", "uid-y");
        ObjectMetadata y = list.items().get(1);
        assertThat(y.kind()).isEqualTo("ConfigMap");
        assertThat(y.metadata().ownerReferencesOrEmpty().getFirst().blockOwnerDeletion())
                .isTrue();
    }

    @Test
    void watchFromTheListRevisionDeliversLaterChangesOnly() {
        put("a", "x", null);
        String rv = lw.list(ListOptions.none()).resourceVersion();
        try (WatchStream<ObjectMetadata> w =
                lw.watch(ListOptions.builder().resourceVersion(rv).build())) {
            put("a", "z", null);
            assertThat(w.next().orElseThrow())
                    .isInstanceOfSatisfying(
                            WatchEvent.Added.class,
                            a -> assertThat(((ObjectMetadata) a.object()).uid()).isEqualTo("uid-z"));
        }
    }

    @Test
    void watchFromACompactedRevisionIsGone() {
        put("a", "x", null);
        put("a", "y", null);
        store.compact();
        assertThatThrownBy(() ->
                        lw.watch(ListOptions.builder().resourceVersion("1").build()))
                .isInstanceOf(GoneException.class);
    }

    @Test
    void watchEndsWhenItsTimeoutIsOverAndWhenClosed() {
        WatchStream<ObjectMetadata> timed = lw.watch(ListOptions.builder()
                .resourceVersion("0")
                .timeout(Duration.ofMillis(100))
                .build());
        assertThat(timed.next()).isEmpty();
        WatchStream<ObjectMetadata> closed =
                lw.watch(ListOptions.builder().resourceVersion("0").build());
        closed.close();
        assertThat(closed.next()).isEmpty();
    }
}
