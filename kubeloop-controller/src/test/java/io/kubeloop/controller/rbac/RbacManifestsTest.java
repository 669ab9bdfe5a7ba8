package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The RBAC objects written for a manager's permissions, as kubebuilder's config/rbac holds them. */
class RbacManifestsTest {

    private static final PolicyRule LEASES =
            PolicyRule.forResources("coordination.k8s.io", List.of("leases"), "get", "create", "update");

    @Test
    void clusterWidePermissionsGiveAServiceAccountAClusterRoleItsBindingAndALeaderElectionRole() {
        ManagerPermissions permissions = ManagerPermissions.builder()
                .clusterWide(PolicyRule.forResources("apps", List.of("deployments"), "get", "list", "watch"))
                .clusterWide(PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos/status"), "update"))
                .clusterWide(PolicyRule.forResources("apps", List.of("deployments"), "create", "update"))
                .clusterWide(PolicyRule.forResources("", List.of("events"), "create", "patch"))
                .clusterWide(
                        PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos"), "get", "list", "watch"))
                .leaderElection("foo-system", LEASES)
                .build();

        String yaml = RbacManifests.of(permissions, "foo", "foo-system").yaml();

        assertThat(yaml).isEqualTo("""
                apiVersion: v1
                kind: ServiceAccount
                metadata:
                  name: foo-controller-manager
                  namespace: foo-system
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata:
                  name: foo-manager-role
                rules:
                - apiGroups:
                  - ""
                  resources:
                  - events
                  verbs:
                  - create
                  - patch
                - apiGroups:
                  - apps
                  resources:
                  - deployments
                  verbs:
                  - create
                  - get
                  - list
                  - update
                  - watch
                - apiGroups:
                  - samplecontroller.k8s.io
                  resources:
                  - foos
                  verbs:
                  - get
                  - list
                  - watch
                - apiGroups:
                  - samplecontroller.k8s.io
                  resources:
                  - foos/status
                  verbs:
                  - update
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRoleBinding
                metadata:
                  name: foo-manager-rolebinding
                roleRef:
                  apiGroup: rbac.authorization.k8s.io
                  kind: ClusterRole
                  name: foo-manager-role
                subjects:
                - kind: ServiceAccount
                  name: foo-controller-manager
                  namespace: foo-system
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata:
                  name: foo-leader-election-role
                  namespace: foo-system
                rules:
                - apiGroups:
                  - coordination.k8s.io
                  resources:
                  - leases
                  verbs:
                  - create
                  - get
                  - update
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata:
                  name: foo-leader-election-rolebinding
                  namespace: foo-system
                roleRef:
                  apiGroup: rbac.authorization.k8s.io
                  kind: Role
                  name: foo-leader-election-role
                subjects:
                - kind: ServiceAccount
                  name: foo-controller-manager
                  namespace: foo-system
                """);
    }

    @Test
    void namespacedPermissionsGiveARoleAndBindingInEachNamespaceInNameOrderAndNoClusterRole() {
        PolicyRule pods = PolicyRule.forResources("", List.of("pods"), "get", "list", "watch");
        ManagerPermissions permissions = ManagerPermissions.builder()
                .inNamespace("shop", pods)
                .inNamespace("billing", pods)
                .build();

        List<DynamicObject> objects =
                RbacManifests.of(permissions, "foo", "foo-system").objects();

        assertThat(objects)
                .extracting(o -> o.kind() + " " + o.metadata().namespace() + "/"
                        + o.metadata().name())
                .containsExactly(
                        "ServiceAccount foo-system/foo-controller-manager",
                        "Role billing/foo-manager-role",
                        "RoleBinding billing/foo-manager-rolebinding",
                        "Role shop/foo-manager-role",
                        "RoleBinding shop/foo-manager-rolebinding");
        DynamicObject binding = objects.get(2);
        assertThat(binding.node().path("roleRef").path("kind").asString()).isEqualTo("Role");
        assertThat(binding.node().path("subjects").get(0).path("namespace").asString())
                .isEqualTo("foo-system");
    }

    @Test
    void theSamePermissionsDeclaredInAnotherOrderGiveTheSameYaml() {
        PolicyRule a = PolicyRule.forResources("apps", List.of("deployments"), "get");
        PolicyRule b = PolicyRule.forResources("", List.of("configmaps"), "list");
        PolicyRule c = PolicyRule.forNonResourceUrls(List.of("/metrics"), "get");
        String one = RbacManifests.of(
                        ManagerPermissions.builder()
                                .clusterWide(a)
                                .clusterWide(b)
                                .clusterWide(c)
                                .build(),
                        "x",
                        "y")
                .yaml();
        String other = RbacManifests.of(
                        ManagerPermissions.builder()
                                .clusterWide(c)
                                .clusterWide(b)
                                .clusterWide(a)
                                .build(),
                        "x",
                        "y")
                .yaml();

        assertThat(one).isEqualTo(other).contains("nonResourceURLs:\n  - /metrics");
    }

    @Test
    void aPrefixOrNamespaceThatIsNoKubernetesNameIsRejected() {
        ManagerPermissions none = ManagerPermissions.builder().build();

        assertThatThrownBy(() -> RbacManifests.of(none, "Foo_Controller", "ns"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namePrefix");
        assertThatThrownBy(() -> RbacManifests.of(none, "foo", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namespace");
    }

    /** A setup class as users write one: adds a controller of ConfigMaps that also writes Secrets. */
    public static final class ConfigMapSetup {
        public static void addTo(Manager manager) {
            ControllerBuilder.forResource(ConfigMap.class)
                    .withPermissions(PolicyRule.forResources("", List.of("secrets"), "create"))
                    .build(manager, (request, context) -> Result.done());
        }
    }

    /** Not a setup: no static addTo(Manager). */
    public static final class NoSetup {}

    @Test
    void forControllersReadsWhatTheSetupsControllersNeedWithoutACluster() {
        RbacManifests rbac = RbacManifests.forControllers(List.of(ConfigMapSetup.class), "cm", "ops", "cm-lease");
        assertThat(rbac.objects())
                .extracting(DynamicObject::kind)
                .containsExactly("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");
        assertThat(rbac.yaml()).contains("- configmaps", "- secrets", "- leases");
        assertThat(RbacManifests.forControllers(List.of(ConfigMapSetup.class), "cm", "ops", null)
                        .objects())
                .extracting(DynamicObject::kind)
                .containsExactly("ServiceAccount", "ClusterRole", "ClusterRoleBinding");
    }

    @Test
    void aClassWithoutAStaticAddToIsNamed() {
        assertThatThrownBy(() -> RbacManifests.forControllers(List.of(NoSetup.class), "cm", "ops", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        NoSetup.class.getName() + " has no public static addTo(io.kubeloop.controller.Manager)");
    }
}
