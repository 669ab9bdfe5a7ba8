package io.kubeloop.controller.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Scheme;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnerReferencesTest {

    @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1")
    record Foo(String apiVersion, String kind, ObjectMeta metadata, Map<String, Object> spec)
            implements KubernetesObject {}

    private static final Scheme SCHEME = Scheme.defaults();

    private static Foo foo(String namespace, String name, String uid) {
        return new Foo(
                "samplecontroller.k8s.io/v1alpha1",
                "Foo",
                ObjectMeta.builder().namespace(namespace).name(name).uid(uid).build(),
                Map.of("replicas", 1));
    }

    private static Deployment deployment(String namespace, String name) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .endSpec()
                .build();
    }

    @Test
    void setControllerReferenceAddsAControllingBlockingReferenceToACopy() {
        Deployment original = deployment("default", "web");
        Deployment owned = OwnerReferences.setControllerReference(foo("default", "foo", "uid-1"), original, SCHEME);

        assertThat(original.getMetadata().getOwnerReferences())
                .as("the argument is not changed")
                .isEmpty();
        assertThat(ObjectAccess.metadata(owned).ownerReferencesOrEmpty())
                .containsExactly(
                        new OwnerReference("samplecontroller.k8s.io/v1alpha1", "Foo", "foo", "uid-1", true, true));
        assertThat(owned.getSpec().getReplicas())
                .as("the rest survives the copy")
                .isEqualTo(2);
        assertThat(OwnerReferences.controllerOf(owned))
                .map(OwnerReference::name)
                .hasValue("foo");
    }

    @Test
    void isControlledByComparesTheControllersUidNotItsName() {
        Foo owner = foo("default", "owner", "uid-1");
        Deployment owned = OwnerReferences.setControllerReference(owner, deployment("default", "web"), SCHEME);

        assertThat(OwnerReferences.isControlledBy(owned, owner)).isTrue();
        assertThat(OwnerReferences.isControlledBy(owned, foo("default", "owner", "uid-2")))
                .as("the same name, created again")
                .isFalse();
        assertThat(OwnerReferences.isControlledBy(deployment("default", "web"), owner))
                .as("no controller")
                .isFalse();
        assertThat(OwnerReferences.isControlledBy(
                        OwnerReferences.setOwnerReference(owner, deployment("default", "web"), SCHEME), owner))
                .as("an owner that is not the controller")
                .isFalse();
    }

    @Test
    void settingTheSameControllerAgainReplacesItsReferenceEvenAcrossVersions() {
        Deployment owned = OwnerReferences.setControllerReference(
                foo("default", "foo", "uid-1"), deployment("default", "web"), SCHEME);
        DynamicObject fooV1 = DynamicObject.of(
                "samplecontroller.k8s.io/v1",
                "Foo",
                ObjectMeta.builder()
                        .namespace("default")
                        .name("foo")
                        .uid("uid-2")
                        .build());
        Deployment again = OwnerReferences.setControllerReference(fooV1, owned, SCHEME);

        assertThat(ObjectAccess.metadata(again).ownerReferencesOrEmpty())
                .containsExactly(new OwnerReference("samplecontroller.k8s.io/v1", "Foo", "foo", "uid-2", true, true));
    }

    @Test
    void anotherControllerIsRefusedWithAlreadyOwned() {
        Deployment owned = OwnerReferences.setControllerReference(
                foo("default", "foo", "uid-1"), deployment("default", "web"), SCHEME);

        assertThatThrownBy(() -> OwnerReferences.setControllerReference(foo("default", "bar", "uid-3"), owned, SCHEME))
                .isInstanceOf(AlreadyOwnedException.class)
                .hasMessage("Object default/web is already owned by another Foo controller foo");
    }

    @Test
    void plainOwnerReferencesAddUpNextToTheController() {
        Deployment owned = OwnerReferences.setControllerReference(
                foo("default", "foo", "uid-1"), deployment("default", "web"), SCHEME);
        Deployment shared = OwnerReferences.setOwnerReference(foo("default", "bar", "uid-3"), owned, SCHEME);

        assertThat(ObjectAccess.metadata(shared).ownerReferencesOrEmpty())
                .containsExactly(
                        new OwnerReference("samplecontroller.k8s.io/v1alpha1", "Foo", "foo", "uid-1", true, true),
                        new OwnerReference("samplecontroller.k8s.io/v1alpha1", "Foo", "bar", "uid-3", null, null));
        assertThat(OwnerReferences.hasOwnerReference(foo("default", "bar", "uid-3"), shared, SCHEME))
                .isTrue();
        assertThat(OwnerReferences.hasOwnerReference(foo("default", "baz", "uid-4"), shared, SCHEME))
                .isFalse();
    }

    @Test
    void namespacesFollowTheGarbageCollectorsRules() {
        ConfigMap elsewhere = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("other")
                .withName("cm")
                .endMetadata()
                .build();
        assertThatThrownBy(() -> OwnerReferences.setOwnerReference(foo("default", "foo", "uid-1"), elsewhere, SCHEME))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "cross-namespace owner references are disallowed, owner's namespace default, obj's namespace other");

        DynamicObject clusterScoped = DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, "team-a"));
        assertThatThrownBy(
                        () -> OwnerReferences.setOwnerReference(foo("default", "foo", "uid-1"), clusterScoped, SCHEME))
                .hasMessage(
                        "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace default");

        DynamicObject clusterOwner = DynamicObject.of(
                "v1",
                "Namespace",
                ObjectMeta.builder().name("team-a").uid("uid-ns").build());
        assertThat(OwnerReferences.setOwnerReference(clusterOwner, elsewhere, SCHEME)
                        .getMetadata()
                        .getOwnerReferences())
                .as("a cluster-scoped owner may own namespaced objects")
                .hasSize(1);
    }

    @Test
    void anOwnerNotReadFromTheServerIsRefused() {
        assertThatThrownBy(() -> OwnerReferences.setControllerReference(
                        foo("default", "foo", null), deployment("default", "web"), SCHEME))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no name or uid");
        assertThatThrownBy(() -> OwnerReferences.controllerReference("not a kind", SCHEME))
                .hasMessageContaining("is not a Kubernetes kind of the scheme");
        assertThatThrownBy(() -> OwnerReferences.ownerReference("not a kind", SCHEME))
                .hasMessageContaining("is not a Kubernetes kind of the scheme");
    }

    @Test
    void theControllerReferenceBlocksOwnerDeletionAndThePlainOneSetsNeitherFlag() {
        OwnerReference controller = OwnerReferences.controllerReference(foo("default", "foo", "uid-1"), SCHEME);
        assertThat(List.of(controller.name(), controller.uid())).containsExactly("foo", "uid-1");
        assertThat(controller.controller()).isTrue();
        assertThat(controller.blockOwnerDeletion()).isTrue();
        OwnerReference plain = OwnerReferences.ownerReference(foo("default", "foo", "uid-1"), SCHEME);
        assertThat(plain.controller()).isNull();
        assertThat(plain.blockOwnerDeletion()).isNull();
        assertThat(List.of(plain.apiVersion(), plain.kind()))
                .containsExactly(controller.apiVersion(), controller.kind());
    }

    @Test
    void recordsAndDynamicObjectsAreCopiedToo() {
        Foo record = foo("default", "child", "uid-9");
        Foo ownedRecord = OwnerReferences.setOwnerReference(foo("default", "parent", "uid-1"), record, SCHEME);
        assertThat(ownedRecord.metadata().ownerReferencesOrEmpty())
                .extracting(OwnerReference::name)
                .containsExactly("parent");
        assertThat(ownedRecord.spec()).isEqualTo(record.spec());
        assertThat(record.metadata().ownerReferencesOrEmpty()).isEmpty();

        DynamicObject dynamic = DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", "cm"));
        DynamicObject ownedDynamic =
                OwnerReferences.setControllerReference(foo("default", "parent", "uid-1"), dynamic, SCHEME);
        assertThat(OwnerReferences.controllerOf(ownedDynamic)).isPresent();
        assertThat(OwnerReferences.controllerOf(dynamic)).isEmpty();
        assertThat(List.of(ownedDynamic.apiVersion(), ownedDynamic.kind())).containsExactly("v1", "ConfigMap");
    }
}
