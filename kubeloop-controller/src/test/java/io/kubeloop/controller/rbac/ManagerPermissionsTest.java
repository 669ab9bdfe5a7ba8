package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a manager's rules are granted, and so which requests they allow. */
class ManagerPermissionsTest {

    private static final PolicyRule GET_PODS = PolicyRule.forResources("", List.of("pods"), "get");
    private static final PolicyRule LEASES =
            PolicyRule.forResources("coordination.k8s.io", List.of("leases"), "get", "create", "update");

    private static ApiAccess getPod(String namespace) {
        return new ApiAccess.Resource("get", "", "pods", "", namespace, "p");
    }

    @Test
    void aClusterWideRuleAllowsInEveryNamespaceAndAcrossNamespaces() {
        ManagerPermissions p =
                ManagerPermissions.builder().clusterWide(GET_PODS).build();

        assertThat(p.allows(getPod("shop"))).isTrue();
        assertThat(p.allows(getPod("billing"))).isTrue();
        assertThat(p.allows(getPod(""))).isTrue();
    }

    @Test
    void aNamespaceRuleAllowsInItsNamespaceOnly() {
        ManagerPermissions p =
                ManagerPermissions.builder().inNamespace("shop", GET_PODS).build();

        assertThat(p.allows(getPod("shop"))).isTrue();
        assertThat(p.allows(getPod("billing"))).isFalse();
        assertThat(p.allows(getPod(""))).as("across all namespaces").isFalse();
    }

    @Test
    void leaderElectionRulesAllowInTheLeasesNamespaceOnly() {
        ManagerPermissions p =
                ManagerPermissions.builder().leaderElection("system", LEASES).build();

        assertThat(p.allows(new ApiAccess.Resource("update", "coordination.k8s.io", "leases", "", "system", "lock")))
                .isTrue();
        assertThat(p.allows(new ApiAccess.Resource("update", "coordination.k8s.io", "leases", "", "shop", "lock")))
                .isFalse();
    }

    @Test
    void rulesAreMergedSoThatEqualGrantsAreEqualValues() {
        ManagerPermissions one = ManagerPermissions.builder()
                .clusterWide(PolicyRule.forResources("", List.of("pods"), "get", "list"))
                .build();
        ManagerPermissions other = ManagerPermissions.builder()
                .clusterWide(PolicyRule.forResources("", List.of("pods"), "list"))
                .clusterWide(GET_PODS)
                .build();

        assertThat(one).isEqualTo(other);
        assertThat(one.clusterRules()).containsExactly(PolicyRule.forResources("", List.of("pods"), "get", "list"));
    }

    @Test
    void nonResourceUrlsCannotBeGrantedInANamespace() {
        assertThatThrownBy(() -> ManagerPermissions.builder()
                        .inNamespace("shop", PolicyRule.forNonResourceUrls(List.of("/metrics"), "get"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cluster-wide only");
    }

    @Test
    void leaderElectionRulesStayInOneNamespace() {
        assertThatThrownBy(() ->
                        ManagerPermissions.builder().leaderElection("a", LEASES).leaderElection("b", LEASES))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
