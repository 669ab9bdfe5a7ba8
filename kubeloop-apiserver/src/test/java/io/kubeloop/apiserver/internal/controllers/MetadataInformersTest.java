package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.StoreOptions;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Informers follow the served set: one per deletable stored resource, custom resources as they come and go. */
class MetadataInformersTest {

    private static ResourceDefinition things() {
        return new ResourceDefinition(
                "example.com",
                "v1",
                "things",
                "Thing",
                null,
                null,
                List.of(),
                List.of(),
                true,
                ResourceDefinition.ALL_VERBS,
                Set.of(),
                NameRule.SUBDOMAIN,
                true,
                true,
                false,
                Set.of(),
                List.of(),
                null,
                null);
    }

    @Test
    void informersFollowCustomResourcesServedAndRemovedAtRunTime() {
        VersionedStore store = VersionedStore.inMemory(StoreOptions.defaults());
        ResourceRegistry resources = new ResourceRegistry();
        List<String> subscribed = new ArrayList<>();
        try (MetadataInformers informers = new MetadataInformers(store, resources)) {
            informers.subscribe((def, informer) -> subscribed.add(def.storageId()));
            informers.start();
            assertThat(informers.resources())
                    .contains("/pods", "apps/deployments", "/namespaces")
                    .doesNotContain("example.com/things");
            assertThat(informers.waitForCacheSync(Duration.ofSeconds(10))).isTrue();

            resources.replace("example.com", "things", List.of(things()));
            assertThat(informers.resources()).contains("example.com/things");
            assertThat(subscribed).containsOnlyOnce("example.com/things");

            resources.remove("example.com", "things");
            assertThat(informers.resources()).doesNotContain("example.com/things");
        } finally {
            store.close();
        }
    }
}
