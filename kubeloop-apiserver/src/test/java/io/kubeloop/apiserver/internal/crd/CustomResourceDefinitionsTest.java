package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.LibraryPatchApplier;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ObjectValidator;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.StoreOptions;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The CRD controller over a registry, without HTTP. */
class CustomResourceDefinitionsTest {

    private static final WriteContext CTX = new WriteContext("test", null, false, FieldValidation.WARN, false);

    private static ObjectNode crd(String plural) {
        return (ObjectNode) KubeJson.mapper().readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"%s.loop.example.com"},
                 "spec":{"group":"loop.example.com","scope":"Cluster","names":{"kind":"K%s","plural":"%s"},
                   "versions":[{"name":"v1","served":true,"storage":true,
                     "schema":{"openAPIV3Schema":{"type":"object"}}}]}}
                """.formatted(plural, plural, plural));
    }

    @Test
    void aValidatorThatRewritesTheStatusDoesNotCauseAWriteLoop() {
        // drops every condition message on write, so the stored status never equals the computed one
        ObjectValidator stripping = (def, obj, old, op, ctx) -> {
            for (JsonNode c : obj.path("status").path("conditions")) {
                ((ObjectNode) c).remove("message");
            }
        };
        VersionedStore store = VersionedStore.inMemory(StoreOptions.defaults());
        ObjectRegistry registry = new ObjectRegistry(
                store,
                new ResourceRegistry(),
                Ticker.system(),
                new CustomResourceValidator(stripping),
                new LibraryPatchApplier());
        ResourceDefinition crds = registry.resources()
                .find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
                .orElseThrow();
        try (CustomResourceDefinitions controller = CustomResourceDefinitions.start(registry, Ticker.system())) {
            registry.create(crds, "", crd("as"), CTX);
            awaitServed(registry, "as");
            registry.create(crds, "", crd("bs"), CTX);
            awaitServed(registry, "bs");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Conditions.isTrue(
                            store.get(crds.storageId(), "bs.loop.example.com")
                                    .orElseThrow()
                                    .object(),
                            Conditions.ESTABLISHED));
            long before = store.currentRevision();
            registry.create(crds, "", crd("cs"), CTX);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Conditions.isTrue(
                            store.get(crds.storageId(), "cs.loop.example.com")
                                    .orElseThrow()
                                    .object(),
                            Conditions.ESTABLISHED));
            // the create and one status write, nothing for "as" or "bs" in between
            assertThat(store.currentRevision() - before).isEqualTo(2);
        }
    }

    private static void awaitServed(ObjectRegistry registry, String plural) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.resources()
                        .find("loop.example.com", "v1", plural)
                        .isPresent());
    }
}
