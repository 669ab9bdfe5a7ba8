package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which requests a rule allows, as the API server's RBAC authorizer matches rules, and which rules can be written. */
class PolicyRuleTest {

    private static ApiAccess.Resource access(String verb, String group, String resource, String sub, String name) {
        return new ApiAccess.Resource(verb, group, resource, sub, "shop", name);
    }

    @Test
    void aRuleAllowsItsVerbsOnItsGroupsResourcesOnly() {
        PolicyRule rule = PolicyRule.forResources("apps", List.of("deployments"), "get", "update");

        assertThat(rule.allows(access("get", "apps", "deployments", "", "web"))).isTrue();
        assertThat(rule.allows(access("update", "apps", "deployments", "", "web")))
                .isTrue();
        assertThat(rule.allows(access("delete", "apps", "deployments", "", "web")))
                .isFalse();
        assertThat(rule.allows(access("get", "", "deployments", "", "web"))).isFalse();
        assertThat(rule.allows(access("get", "apps", "replicasets", "", "web"))).isFalse();
    }

    @Test
    void aSubresourceNeedsItsOwnResourcePathOrAStarForTheResource() {
        ApiAccess status = access("update", "samplecontroller.k8s.io", "foos", "status", "a");

        assertThat(PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos"), "update")
                        .allows(status))
                .isFalse();
        assertThat(PolicyRule.forResources("samplecontroller.k8s.io", List.of("foos/status"), "update")
                        .allows(status))
                .isTrue();
        assertThat(PolicyRule.forResources("samplecontroller.k8s.io", List.of("*/status"), "update")
                        .allows(status))
                .isTrue();
        assertThat(PolicyRule.forResources("*", List.of("*"), "*").allows(status))
                .isTrue();
    }

    @Test
    void aRuleNamingObjectsAllowsOnlyRequestsForThoseObjects() {
        PolicyRule rule = PolicyRule.forResources("", List.of("configmaps"), "get", "list", "create")
                .withResourceNames("settings");

        assertThat(rule.allows(access("get", "", "configmaps", "", "settings"))).isTrue();
        assertThat(rule.allows(access("get", "", "configmaps", "", "other"))).isFalse();
        assertThat(rule.allows(access("list", "", "configmaps", "", ""))).isFalse();
        assertThat(rule.allows(access("create", "", "configmaps", "", ""))).isFalse();
    }

    @Test
    void aNonResourceRuleAllowsItsPathsExactlyOrByAStarPrefix() {
        PolicyRule rule = PolicyRule.forNonResourceUrls(List.of("/metrics", "/healthz/*"), "get");

        assertThat(rule.allows(new ApiAccess.NonResource("get", "/metrics"))).isTrue();
        assertThat(rule.allows(new ApiAccess.NonResource("get", "/healthz/ping")))
                .isTrue();
        assertThat(rule.allows(new ApiAccess.NonResource("get", "/metrics/extra")))
                .isFalse();
        assertThat(rule.allows(new ApiAccess.NonResource("post", "/metrics"))).isFalse();
        assertThat(rule.allows(access("get", "", "metrics", "", ""))).isFalse();
    }

    @Test
    void aRuleWithoutVerbsOrWithoutResourcesAndUrlsOrWithBothIsRejected() {
        assertThatThrownBy(() -> PolicyRule.forResources("apps", List.of("deployments")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("verb");
        assertThatThrownBy(() -> PolicyRule.forResources("apps", List.of(), "get"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("resources");
        assertThatThrownBy(() ->
                        new PolicyRule(List.of("apps"), List.of("deployments"), null, List.of("get"), List.of("/x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> PolicyRule.forNonResourceUrls(List.of("/metrics"), "get")
                        .withResourceNames("a"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRuleReadsAsOneLineInRbacFieldNames() {
        assertThat(PolicyRule.forResources("", List.of("events"), "create", "patch"))
                .hasToString("apiGroups=[\"\"] resources=[events] verbs=[create, patch]");
        assertThat(PolicyRule.forResources("", List.of("configmaps"), "get").withResourceNames("settings"))
                .hasToString("apiGroups=[\"\"] resources=[configmaps] resourceNames=[settings] verbs=[get]");
        assertThat(PolicyRule.forNonResourceUrls(List.of("/metrics"), "get"))
                .hasToString("nonResourceURLs=[/metrics] verbs=[get]");
    }
}
