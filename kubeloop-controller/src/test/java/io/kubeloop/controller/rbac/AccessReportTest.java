package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Recorded use compared with declared rules: what is missing, what was never used. */
class AccessReportTest {

    private static final ManagerPermissions DECLARED = ManagerPermissions.builder()
            .clusterWide(PolicyRule.forResources("apps", List.of("deployments"), "get", "list", "watch", "create"))
            .inNamespace("shop", PolicyRule.forResources("", List.of("configmaps"), "get"))
            .build();

    private static ApiAccess.Resource access(String verb, String group, String resource, String sub, String ns) {
        return new ApiAccess.Resource(verb, group, resource, sub, ns, "");
    }

    @Test
    void aRequestNoRuleAllowsIsMissingAsTheRuleThatWouldAllowIt() {
        List<ApiAccess> used = List.of(
                access("list", "apps", "deployments", "", ""),
                access("delete", "apps", "deployments", "", "shop"),
                access("update", "samplecontroller.k8s.io", "foos", "status", "shop"),
                access("update", "samplecontroller.k8s.io", "foos", "status", "billing"));

        AccessReport report = AccessReport.of(DECLARED, used);

        assertThat(report.nothingMissing()).isFalse();
        assertThat(report.missing())
                .containsExactly(
                        PolicyRule.forResources("apps", List.of("deployments"), "delete"),
                        PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos/status"), "update"));
        assertThat(report.denied()).containsExactly(used.get(1), used.get(2), used.get(3));
    }

    @Test
    void aNamespaceRuleDoesNotCoverTheSameRequestInAnotherNamespace() {
        AccessReport report = AccessReport.of(DECLARED, List.of(access("get", "", "configmaps", "", "billing")));

        assertThat(report.missing()).containsExactly(PolicyRule.forResources("", List.of("configmaps"), "get"));
    }

    @Test
    void rightsNoRequestUsedAreReportedAsUnusedRules() {
        AccessReport report = AccessReport.of(
                DECLARED,
                List.of(access("list", "apps", "deployments", "", ""), access("watch", "apps", "deployments", "", "")));

        assertThat(report.missing()).isEmpty();
        assertThat(report.unused())
                .containsExactly(
                        PolicyRule.forResources("", List.of("configmaps"), "get"),
                        PolicyRule.forResources("apps", List.of("deployments"), "create", "get"));
    }

    @Test
    void discoveryAndSelfReviewsNeedNoDeclaration() {
        AccessReport report = AccessReport.of(
                ManagerPermissions.builder().build(),
                List.of(
                        new ApiAccess.NonResource("get", "/apis"),
                        new ApiAccess.NonResource("get", "/apis/apps/v1"),
                        new ApiAccess.NonResource("get", "/version"),
                        access("create", "authorization.k8s.io", "selfsubjectaccessreviews", "", "")));

        assertThat(report.missing()).isEmpty();
        assertThat(report.unused()).isEmpty();
    }

    @Test
    void theTextNamesTheMissingRulesTheirRequestsAndTheUnusedRights() {
        AccessReport report = AccessReport.of(
                DECLARED,
                List.of(
                        access("list", "apps", "deployments", "", ""),
                        access("watch", "apps", "deployments", "", ""),
                        access("get", "apps", "deployments", "", "shop"),
                        new ApiAccess.Resource("get", "", "configmaps", "", "shop", "settings"),
                        new ApiAccess.Resource("update", "apps", "deployments", "scale", "shop", "web")));

        assertThat(report).hasToString("""
                        missing (used but not granted), as rules to add:
                          apiGroups=[apps] resources=[deployments/scale] verbs=[update]
                          for the requests:
                            update apps/deployments/scale shop/web
                        granted but never used:
                          apiGroups=[apps] resources=[deployments] verbs=[create]
                        """);
    }

    @Test
    void aReportWithNothingMissingOrUnusedSaysSo() {
        ManagerPermissions one = ManagerPermissions.builder()
                .clusterWide(PolicyRule.forResources("", List.of("pods"), "get"))
                .build();

        assertThat(AccessReport.of(one, List.of(new ApiAccess.Resource("get", "", "pods", "", "a", "p"))))
                .hasToString("""
                        missing: none; every recorded request is allowed
                        unused: none; every granted right was used
                        """);
    }
}
