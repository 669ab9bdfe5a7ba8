package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.util.CreateOrUpdate;
import io.kubeloop.controller.util.CreateOrUpdate.OperationResult;
import io.kubeloop.controller.util.Finalizers;
import io.kubeloop.controller.util.OwnerReferences;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The controllerutil helpers against the embedded API server: create-or-update, finalizers, owner references. */
@Timeout(60)
class ControllerUtilIntegrationTest extends EmbeddedServerTestBase {

    private ResourceClient<ConfigMap> configMaps() {
        return client.resource(ConfigMap.class);
    }

    private static ConfigMap named(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .endMetadata()
                .build();
    }

    @Test
    void createOrUpdateCreatesThenWritesOnlyWhatChanged() {
        CreateOrUpdate.Outcome<ConfigMap> created = CreateOrUpdate.apply(configMaps(), named("settings"), cm -> {
            cm.setData(Map.of("replicas", "2"));
            return cm;
        });
        assertThat(created.result()).isEqualTo(OperationResult.CREATED);
        String createdVersion = created.object().getMetadata().getResourceVersion();

        CreateOrUpdate.Outcome<ConfigMap> same = CreateOrUpdate.apply(configMaps(), named("settings"), cm -> {
            cm.setData(Map.of("replicas", "2"));
            return cm;
        });
        assertThat(same.result()).as("nothing changed, nothing written").isEqualTo(OperationResult.NONE);
        assertThat(configMaps()
                        .inNamespace("default")
                        .get("settings")
                        .getMetadata()
                        .getResourceVersion())
                .isEqualTo(createdVersion);

        CreateOrUpdate.Outcome<ConfigMap> updated = CreateOrUpdate.apply(configMaps(), named("settings"), cm -> {
            cm.setData(Map.of("replicas", "3"));
            return cm;
        });
        assertThat(updated.result()).isEqualTo(OperationResult.UPDATED);
        assertThat(configMaps().inNamespace("default").get("settings").getData())
                .containsEntry("replicas", "3");

        assertThatThrownBy(() -> CreateOrUpdate.apply(configMaps(), named("settings"), cm -> named("renamed")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("MutateFn cannot mutate object name and/or object namespace");
    }

    @Test
    void anUpdateBasedOnAStaleReadIsAConflict() {
        CreateOrUpdate.apply(configMaps(), named("raced"), cm -> {
            cm.setData(Map.of("v", "1"));
            return cm;
        });
        assertThatThrownBy(() -> CreateOrUpdate.apply(configMaps(), named("raced"), cm -> {
                    // someone else writes between our read and our update
                    ConfigMap theirs = configMaps().inNamespace("default").get("raced");
                    theirs.setData(Map.of("v", "theirs"));
                    configMaps().inNamespace("default").update(theirs);
                    cm.setData(Map.of("v", "ours"));
                    return cm;
                }))
                .isInstanceOf(ConflictException.class);
    }

    @Test
    void aFinalizerHoldsDeletionUntilRemoved() {
        ResourceClient<ConfigMap> cms = configMaps().inNamespace("default");
        ConfigMap cm = cms.create(named("guarded"));
        cm = cms.update(Finalizers.add(cm, "example.com/cleanup"));
        cms.delete("guarded");

        ConfigMap terminating = cms.get("guarded");
        assertThat(ObjectAccess.metadata(terminating).isTerminating()).isTrue();
        assertThat(Finalizers.contains(terminating, "example.com/cleanup")).isTrue();

        cms.update(Finalizers.remove(terminating, "example.com/cleanup"));
        assertThatThrownBy(() -> cms.get("guarded")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aControllerReferenceLetsTheGarbageCollectorDeleteTheDependentWithItsOwner() {
        ConfigMap owner = configMaps().inNamespace("default").create(named("owner"));
        Secret dependent = new SecretBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("dependent")
                .endMetadata()
                .addToStringData("k", "v")
                .build();
        ResourceClient<Secret> secrets = client.resource(Secret.class).inNamespace("default");
        secrets.create(OwnerReferences.setControllerReference(owner, dependent, Scheme.defaults()));
        assertThat(OwnerReferences.controllerOf(secrets.get("dependent")))
                .map(r -> r.uid())
                .hasValue(owner.getMetadata().getUid());

        configMaps().inNamespace("default").delete("owner");
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try {
                secrets.get("dependent");
                return false;
            } catch (NotFoundException gone) {
                return true;
            }
        });
    }
}
