package io.kubeloop.it;

import static io.kubeloop.controller.client.ListOption.inNamespace;
import static io.kubeloop.controller.client.ListOption.matchingField;
import static io.kubeloop.controller.client.ListOption.matchingLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.Scale;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.client.ByObject;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.client.CacheScopeException;
import io.kubeloop.controller.client.Client;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A manager's cache-backed client, cache and uncached reader against the embedded API server: reads
 * from informers started on first use, copies handed to callers, selectors and field indexes, the
 * cache's scope, writes and server-side apply of plain objects.
 */
@Timeout(120)
class ManagerClientIntegrationTest extends EmbeddedServerTestBase {

    private Manager manager;

    @AfterEach
    void closeManager() {
        if (manager != null) {
            manager.close();
        }
    }

    private Manager manager(ManagerOptions options) {
        manager = Manager.create(client, options);
        return manager;
    }

    private ConfigMap configMap(String namespace, String name, Map<String, String> labels, Map<String, String> data) {
        return client.resource(ConfigMap.class)
                .inNamespace(namespace)
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(labels)
                        .endMetadata()
                        .withData(data)
                        .build());
    }

    private void namespace(String name) {
        client.resource(Namespace.class)
                .create(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build());
    }

    @Test
    void aFirstReadStartsTheTypesInformerAndWaitsForItsSync() {
        configMap("default", "a", Map.of(), Map.of("k", "v"));
        Client c = manager(ManagerOptions.defaults()).client();

        assertThat(c.get(ConfigMap.class, ObjectKey.of("default", "a")).getData())
                .containsEntry("k", "v");
        assertThat(manager.cache().informersFor(ConfigMap.class))
                .singleElement()
                .satisfies(i -> assertThat(i.hasSynced()).isTrue());
        assertThat(c.getOptional(ConfigMap.class, ObjectKey.of("default", "missing")))
                .isEmpty();
        assertThatThrownBy(() -> c.get(ConfigMap.class, ObjectKey.of("default", "missing")))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void everyReadReturnsACopyTheCallerMayChange() {
        configMap("default", "a", Map.of(), Map.of("k", "v"));
        Client c = manager(ManagerOptions.defaults()).client();
        ConfigMap first = c.get(ConfigMap.class, ObjectKey.of("default", "a"));

        first.getData().put("k", "changed by the caller");
        c.list(ConfigMap.class).forEach(cm -> cm.getMetadata().setName("renamed"));

        assertThat(c.get(ConfigMap.class, ObjectKey.of("default", "a")).getData())
                .containsEntry("k", "v");
        assertThat(c.list(ConfigMap.class, inNamespace("default")))
                .extracting(cm -> cm.getMetadata().getName())
                .contains("a")
                .doesNotContain("renamed");
    }

    @Test
    void listsSelectByNamespaceLabelsAndIndexedFields() {
        namespace("other");
        configMap("default", "a", Map.of("tier", "web"), Map.of("owner", "ann"));
        configMap("default", "b", Map.of("tier", "db"), Map.of("owner", "bob"));
        configMap("other", "c", Map.of("tier", "web"), Map.of("owner", "ann"));
        manager(ManagerOptions.defaults());
        manager.cache()
                .indexField(
                        ConfigMap.class,
                        "data.owner",
                        cm -> cm.getData() == null
                                ? List.of()
                                : List.of(cm.getData().getOrDefault("owner", "")));
        Client c = manager.client();

        assertThat(names(c.list(ConfigMap.class, matchingField("data.owner", "ann"))))
                .containsExactlyInAnyOrder("a", "c");
        assertThat(names(c.list(ConfigMap.class, inNamespace("default"), matchingField("data.owner", "ann"))))
                .containsExactly("a");
        assertThat(names(c.list(ConfigMap.class, matchingLabels(Map.of("tier", "web")))))
                .containsExactlyInAnyOrder("a", "c");
        assertThat(names(c.list(
                        ConfigMap.class, matchingLabels(Map.of("tier", "web")), matchingField("data.owner", "bob"))))
                .isEmpty();
        assertThat(names(c.list(ConfigMap.class, inNamespace("other"))))
                .contains("c")
                .doesNotContain("a", "b");
        assertThat(names(c.list(ConfigMap.class, matchingField("metadata.name", "b"))))
                .containsExactly("b");
        assertThatThrownBy(() -> c.list(ConfigMap.class, matchingField("data.color", "red")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no index for field \"data.color\"")
                .hasMessageContaining("indexField");
        assertThatThrownBy(() -> c.list(ConfigMap.class, inNamespace("a"), inNamespace("b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inNamespace was given twice");
    }

    @Test
    void kindsReadAsDynamicObjects() {
        configMap("default", "a", Map.of(), Map.of("k", "v"));
        Client c = manager(ManagerOptions.defaults()).client();
        GroupVersionKind configMaps = GroupVersionKind.of("v1", "ConfigMap");

        DynamicObject a = c.get(configMaps, ObjectKey.of("default", "a"));

        assertThat(a.kind()).isEqualTo("ConfigMap");
        assertThat(a.at("/data/k"))
                .hasValueSatisfying(v -> assertThat(v.asString()).isEqualTo("v"));
        assertThat(c.list(configMaps, inNamespace("default")))
                .extracting(DynamicObject::key)
                .contains(a.key());
    }

    @Test
    void theCacheHoldsOnlyItsScopeAndRefusesReadsOutsideIt() {
        namespace("shop");
        namespace("billing");
        configMap("shop", "in-scope", Map.of("app", "web"), Map.of());
        configMap("shop", "unlabelled", Map.of(), Map.of());
        configMap("billing", "elsewhere", Map.of("app", "web"), Map.of());
        Client c = manager(ManagerOptions.defaults()
                        .withCache(CacheOptions.defaults()
                                .withDefaultNamespaces("shop")
                                .with(ByObject.of(ConfigMap.class).withLabelSelector("app=web"))))
                .client();

        assertThat(c.get(ConfigMap.class, ObjectKey.of("shop", "in-scope"))).isNotNull();
        assertThat(c.getOptional(ConfigMap.class, ObjectKey.of("shop", "unlabelled")))
                .as("outside the label selector: never held")
                .isEmpty();
        assertThatThrownBy(() -> c.get(ConfigMap.class, ObjectKey.of("billing", "elsewhere")))
                .isInstanceOf(CacheScopeException.class)
                .hasMessageContaining("namespace \"billing\"")
                .hasMessageContaining("[shop]");
        assertThatThrownBy(() -> c.list(ConfigMap.class, inNamespace("billing")))
                .isInstanceOf(CacheScopeException.class);
        assertThat(names(c.list(ConfigMap.class))).containsExactly("in-scope");
        assertThat(manager.cache().informersFor(ConfigMap.class))
                .singleElement()
                .satisfies(i -> assertThat(i.indexer().list())
                        .extracting(cm -> cm.getMetadata().getName())
                        .containsExactly("in-scope"));
        assertThat(manager.apiReader().get(ConfigMap.class, ObjectKey.of("billing", "elsewhere")))
                .as("the uncached reader is not scoped")
                .isNotNull();
    }

    @Test
    void writesGoToTheServerAndStatusToItsSubresource() {
        FooCrd.install(client, Duration.ofSeconds(30));
        Client c = manager(ManagerOptions.defaults()).client();

        Foo created = c.create(Foo.of("default", "f", "d", 1));
        Foo withStatus = c.status().update(created.withStatus(new Foo.Status(3)));
        Foo renamed = c.update(new Foo(
                withStatus.apiVersion(),
                withStatus.kind(),
                withStatus.metadata(),
                new Foo.Spec("d2", 1),
                new Foo.Status(9)));

        assertThat(withStatus.status().availableReplicas()).isEqualTo(3);
        assertThat(renamed.spec().deploymentName()).isEqualTo("d2");
        assertThat(renamed.status().availableReplicas())
                .as("update ignores the status")
                .isEqualTo(3);
        assertThatThrownBy(() -> c.update(created)).isInstanceOf(ConflictException.class);

        Foo patched = c.patch(renamed, PatchType.MERGE, "{\"spec\":{\"replicas\":4}}");
        assertThat(patched.spec().replicas()).isEqualTo(4);

        c.delete(patched);
        assertThat(manager.apiReader().getOptional(Foo.class, ObjectKey.of("default", "f")))
                .isEmpty();
        assertThatThrownBy(() -> c.delete(patched)).isInstanceOf(NotFoundException.class);
        Client.ignoreNotFound(() -> c.delete(patched));
    }

    @Test
    void theScaleSubresourceReadsAndSetsTheReplicas() {
        Client c = manager(ManagerOptions.defaults()).client();
        Deployment d = c.create(new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector()
                .addToMatchLabels("app", "web")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "web")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build());

        Scale before = c.getScale(d);
        Scale after = c.scale(d, 3);

        assertThat(before.replicas()).isEqualTo(1);
        assertThat(before.name()).isEqualTo("web");
        assertThat(after.replicas()).isEqualTo(3);
        assertThat(manager.apiReader()
                        .get(Deployment.class, ObjectKey.of("default", "web"))
                        .getSpec()
                        .getReplicas())
                .isEqualTo(3);
    }

    @Test
    void deleteAllOfDeletesTheSelectedObjectsOfOneNamespace() {
        configMap("default", "a", Map.of("batch", "1"), Map.of());
        configMap("default", "b", Map.of("batch", "1"), Map.of());
        configMap("default", "keep", Map.of("batch", "2"), Map.of());
        Client c = manager(ManagerOptions.defaults()).client();

        c.deleteAllOf(ConfigMap.class, inNamespace("default"), matchingLabels(Map.of("batch", "1")));

        assertThat(names(manager.apiReader().list(ConfigMap.class, inNamespace("default"))))
                .contains("keep")
                .doesNotContain("a", "b");
        assertThatThrownBy(() -> c.deleteAllOf(ConfigMap.class, matchingLabels(Map.of("batch", "2"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namespace");
    }

    @Test
    void applyOfAPlainObjectCreatesThenChangesOnlyWhatDiffers() {
        Client c = manager(ManagerOptions.defaults()).client();
        ConfigMap desired = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("applied")
                .endMetadata()
                .withData(Map.of("a", "1"))
                .build();

        ConfigMap first = c.apply(desired, "tester");
        desired.setData(Map.of("a", "2", "b", "3"));
        ConfigMap second = c.apply(desired, "tester");

        assertThat(first.getData()).containsExactly(Map.entry("a", "1"));
        assertThat(second.getData()).containsEntry("a", "2").containsEntry("b", "3");
        assertThat(second.getMetadata().getManagedFields())
                .extracting(f -> f.getManager())
                .containsExactly("tester");
    }

    @Test
    void applyOfAnObjectAsReadDropsTheServerOwnedFieldsAndKeepsItsResourceVersionAsAPrecondition() {
        configMap("default", "read", Map.of(), Map.of("a", "1"));
        Client c = manager(ManagerOptions.defaults()).client();
        ConfigMap read = manager.apiReader().get(ConfigMap.class, ObjectKey.of("default", "read"));
        assertThat(read.getMetadata().getUid()).isNotNull();
        assertThat(read.getMetadata().getManagedFields()).isNotEmpty();

        read.getData().put("a", "2");
        ConfigMap applied = c.apply(read, PatchOptions.forceApply("tester"));
        assertThat(applied.getData()).containsEntry("a", "2");

        read.getData().put("a", "3"); // still the old resourceVersion
        assertThatThrownBy(() -> c.apply(read, PatchOptions.forceApply("tester")))
                .isInstanceOf(ConflictException.class);
    }

    @Test
    void applyLeavesTheStatusOutAndStatusApplyWritesOnlyIt() {
        FooCrd.install(client, Duration.ofSeconds(30));
        Client c = manager(ManagerOptions.defaults()).client();

        Foo applied = c.apply(Foo.of("default", "f", "d", 2).withStatus(new Foo.Status(7)), "tester");
        assertThat(applied.status())
                .as("status is not part of an apply to the main resource")
                .isNull();

        Foo statusApplied = c.status()
                .apply(
                        Foo.of("default", "f", "ignored", 99).withStatus(new Foo.Status(7)),
                        PatchOptions.apply("tester"));
        assertThat(statusApplied.status().availableReplicas()).isEqualTo(7);
        assertThat(statusApplied.spec()).isEqualTo(new Foo.Spec("d", 2));
    }

    @Test
    void theClientRefusesEveryCallOnceTheManagerClosed() {
        Client c = manager(ManagerOptions.defaults()).client();
        manager.close();

        assertThatThrownBy(() -> c.create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName("late")
                        .endMetadata()
                        .build()))
                .isInstanceOf(CancellationException.class)
                .hasMessageContaining("the manager stopped");
        assertThat(client.resource(ConfigMap.class)
                        .inNamespace("default")
                        .list()
                        .items())
                .extracting(cm -> cm.getMetadata().getName())
                .doesNotContain("late");
    }

    private static List<String> names(List<ConfigMap> configMaps) {
        return configMaps.stream().map(cm -> cm.getMetadata().getName()).toList();
    }

    @Test
    void theCacheHoldsNoManagedFieldsByDefaultAndAnUpdateFromItKeepsTheServers() {
        configMap("default", "owned", Map.of(), Map.of("k", "v"));
        Client c = manager(ManagerOptions.defaults()).client();
        GroupVersionKind configMaps = GroupVersionKind.of("v1", "ConfigMap");

        ConfigMap cached = c.get(ConfigMap.class, ObjectKey.of("default", "owned"));
        assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(c.get(configMaps, ObjectKey.of("default", "owned"))
                        .metadata()
                        .managedFields())
                .isNull();
        assertThat(c.get(io.kubeloop.models.core.v1.ConfigMap.class, ObjectKey.of("default", "owned"))
                        .metadata()
                        .managedFields())
                .isNull();

        cached.getData().put("k", "changed");
        c.update(cached);

        ConfigMap stored = manager.apiReader().get(ConfigMap.class, ObjectKey.of("default", "owned"));
        assertThat(stored.getData()).containsEntry("k", "changed");
        assertThat(stored.getMetadata().getManagedFields())
                .as("an update without managedFields leaves the server's record of them")
                .isNotEmpty();
    }

    @Test
    void aCacheKeepingManagedFieldsHoldsThem() {
        configMap("default", "kept", Map.of(), Map.of("k", "v"));
        Client c = manager(ManagerOptions.defaults()
                        .withCache(CacheOptions.defaults().keepingManagedFields()))
                .client();

        assertThat(c.get(ConfigMap.class, ObjectKey.of("default", "kept"))
                        .getMetadata()
                        .getManagedFields())
                .isNotEmpty();
        assertThat(c.get(GroupVersionKind.of("v1", "ConfigMap"), ObjectKey.of("default", "kept"))
                        .metadata()
                        .managedFields())
                .isNotEmpty();
    }
}
