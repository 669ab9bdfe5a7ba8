package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.controller.client.ByObject;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.rbac.AccessRecorder;
import io.kubeloop.controller.rbac.ApiAccess;
import io.kubeloop.controller.rbac.ManagerPermissions;
import io.kubeloop.controller.rbac.Permission;
import io.kubeloop.controller.rbac.PolicyRule;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a manager knows of the RBAC its controllers need: the types they watch, what their reconcilers
 * and builders declare, Events and leader election, placed by the cache's scope. No manager here starts.
 */
class ManagerRbacTest {

    @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1")
    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    @Permission(
            groups = "apps",
            resources = "deployments",
            verbs = {"create", "update"})
    @Permission(groups = "samplecontroller.k8s.io", resources = "foos/status", verbs = "update")
    static final class FooReconciler implements Reconciler {
        @Override
        public Result reconcile(Request request, ReconcileContext context) {
            return Result.done();
        }
    }

    @Permission(groups = "core", resources = "secrets", resourceNames = "token", verbs = "get")
    @Permission(urls = "/metrics", verbs = "get")
    static final class SecretReader implements Reconciler {
        @Override
        public Result reconcile(Request request, ReconcileContext context) {
            return Result.done();
        }
    }

    @Permission(groups = "apps", verbs = "get")
    static final class NoResources implements Reconciler {
        @Override
        public Result reconcile(Request request, ReconcileContext context) {
            return Result.done();
        }
    }

    private final KubeClient client = KubeClient.create(
            new ClientConfig(
                    URI.create("https://127.0.0.1:9"),
                    SslContextBuilder.create().insecureSkipTlsVerify().build(),
                    null,
                    AuthProvider.none(),
                    "default",
                    null,
                    "nowhere"),
            ClientOptions.builder()
                    .maxRetries(0)
                    .connectTimeout(Duration.ofSeconds(2))
                    .build());

    @AfterEach
    void close() {
        client.close();
    }

    private static PolicyRule rule(String group, String resource, String... verbs) {
        return PolicyRule.forResources(group, List.of(resource), verbs);
    }

    @Test
    void aControllerReadsTheTypesItWatchesAndNeedsWhatItsReconcilerDeclaresAndEvents() {
        try (Manager manager = Manager.create(client)) {
            ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager, new FooReconciler());

            ManagerPermissions permissions = manager.permissions();

            assertThat(permissions.clusterRules())
                    .containsExactly(
                            rule("", "events", "create", "patch"),
                            rule("apps", "deployments", "create", "get", "list", "update", "watch"),
                            rule("samplecontroller.k8s.io", "foos", "get", "list", "watch"),
                            PolicyRule.forResources(
                                    "samplecontroller.k8s.io", List.of("foos/finalizers", "foos/status"), "update"));
            assertThat(permissions.namespaceRules()).isEmpty();
            assertThat(permissions.leaderElectionNamespace()).isEmpty();
        }
    }

    @Test
    void aControllerThatOwnsATypeMayUpdateTheFinalizersOfItsReconciledTypeWhereItReadsIt() {
        ManagerOptions options = ManagerOptions.defaults()
                .withCache(CacheOptions.defaults().with(ByObject.of(Foo.class).inNamespaces("shop")));
        try (Manager manager = Manager.create(client, options)) {
            ControllerBuilder.forResource(Foo.class).owns(ConfigMap.class).build(manager, new SecretReader());
            ControllerBuilder.forResource(Namespace.class)
                    .ownsMetadataOnly(ConfigMap.class)
                    .build(manager, new SecretReader());

            ManagerPermissions permissions = manager.permissions();

            assertThat(permissions.namespaceRules().get("shop"))
                    .as("blockOwnerDeletion on the Foo, as clusters enforcing owner references authorize it")
                    .containsExactly(
                            rule("samplecontroller.k8s.io", "foos", "get", "list", "watch"),
                            rule("samplecontroller.k8s.io", "foos/finalizers", "update"));
            assertThat(permissions.clusterRules())
                    .as("a cluster-scoped owner's finalizers, cluster-wide")
                    .contains(rule("", "namespaces/finalizers", "update"))
                    .noneMatch(r -> r.resources().contains("configmaps/finalizers"));
        }
    }

    @Test
    void aCleanupNeedsToPatchTheReconciledTypeForItsFinalizer() {
        try (Manager manager = Manager.create(client)) {
            ControllerBuilder.forResource(Foo.class)
                    .withCleanup("samplecontroller.k8s.io/cleanup", (foo, context) -> Result.done())
                    .build(manager, new FooReconciler());

            assertThat(manager.permissions().clusterRules())
                    .contains(rule("samplecontroller.k8s.io", "foos", "get", "list", "patch", "watch"));
        }
    }

    @Test
    void rulesGivenToTheBuilderJoinTheAnnotationsAndWatchesAddReads() {
        try (Manager manager = Manager.create(client)) {
            ControllerBuilder.forResource(Foo.class)
                    .watches(ConfigMap.class, EventHandler.fromMapFunction(cm -> List.of()), e -> true)
                    .withPermissions(rule("batch", "jobs", "create", "delete"))
                    .build(manager, new SecretReader());

            assertThat(manager.permissions().clusterRules())
                    .as("controller-gen's order: a rule without groups and resources sorts first")
                    .containsExactly(
                            PolicyRule.forNonResourceUrls(List.of("/metrics"), "get"),
                            rule("", "configmaps", "get", "list", "watch"),
                            rule("", "events", "create", "patch"),
                            rule("", "secrets", "get").withResourceNames("token"),
                            rule("batch", "jobs", "create", "delete"),
                            rule("samplecontroller.k8s.io", "foos", "get", "list", "watch"));
        }
    }

    @Test
    void aCacheScopedToNamespacesGivesRulesPerNamespaceAndKeepsClusterScopedResourcesClusterWide() {
        ManagerOptions options = ManagerOptions.defaults()
                .withCache(CacheOptions.defaults()
                        .withDefaultNamespaces("shop", "billing")
                        .with(ByObject.of(ConfigMap.class).inNamespaces("config")));
        try (Manager manager = Manager.create(client, options)) {
            ControllerBuilder.forResource(Foo.class)
                    .owns(Deployment.class)
                    .watches(ConfigMap.class, EventHandler.fromMapFunction(cm -> List.of()), e -> true)
                    .watches(Namespace.class, EventHandler.fromMapFunction(ns -> List.of()), e -> true)
                    .withPermissions(rule("", "namespaces", "update"))
                    .build(manager, new FooReconciler());

            ManagerPermissions permissions = manager.permissions();

            assertThat(permissions.clusterRules())
                    .containsExactly(rule("", "namespaces", "get", "list", "update", "watch"));
            List<PolicyRule> inEach = List.of(
                    rule("", "events", "create", "patch"),
                    rule("apps", "deployments", "create", "get", "list", "update", "watch"),
                    rule("samplecontroller.k8s.io", "foos", "get", "list", "watch"),
                    PolicyRule.forResources(
                            "samplecontroller.k8s.io", List.of("foos/finalizers", "foos/status"), "update"));
            assertThat(permissions.namespaceRules())
                    .containsExactly(
                            Map.entry("billing", inEach),
                            Map.entry("config", List.of(rule("", "configmaps", "get", "list", "watch"))),
                            Map.entry("shop", inEach));
        }
    }

    @Test
    void leaderElectionNeedsLeasesInTheLeasesNamespace() {
        ManagerOptions options = ManagerOptions.defaults()
                .withLeaderElection(LeaderElectionOptions.defaults("foo-system", "foo-lock", "me"));
        try (Manager manager = Manager.create(client, options)) {
            ManagerPermissions permissions = manager.permissions();

            assertThat(permissions.leaderElectionNamespace()).contains("foo-system");
            assertThat(permissions.leaderElectionRules())
                    .containsExactly(rule("coordination.k8s.io", "leases", "create", "get", "update"));
            assertThat(permissions.clusterRules()).isEmpty();
        }
    }

    @Test
    void anEventsV1RecorderNeedsEventsOfEventsK8sIo() {
        try (Manager manager = Manager.create(client)) {
            manager.eventsV1RecorderFor("foo");

            assertThat(manager.permissions().clusterRules())
                    .containsExactly(rule("events.k8s.io", "events", "create", "patch"));
        }
    }

    @Test
    void aPermissionThatMakesNoRuleIsRejectedNamingTheReconcilerAndAddsNoController() {
        try (Manager manager = Manager.create(client)) {
            assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class).build(manager, new NoResources()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("NoResources");
            assertThat(manager.permissions().clusterRules()).isEmpty();
        }
    }

    @Test
    void withAnAccessRecorderEveryRequestOfTheManagersClientIsNoted() {
        AccessRecorder recorder = AccessRecorder.create();
        try (Manager manager = Manager.create(client, ManagerOptions.defaults().withAccessRecorder(recorder))) {
            assertThatThrownBy(() -> manager.apiReader().get(Foo.class, ObjectKey.of("shop", "a")))
                    .isInstanceOf(RuntimeException.class);
        }

        assertThat(recorder.accesses())
                .containsExactly(new ApiAccess.Resource("get", "samplecontroller.k8s.io", "foos", "", "shop", "a"));
    }
}
