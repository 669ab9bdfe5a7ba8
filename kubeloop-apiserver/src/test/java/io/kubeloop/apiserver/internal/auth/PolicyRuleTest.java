package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyRuleTest {

    private static final UserInfo U = UserInfo.of("u", List.of());

    private static RequestAttributes get(String group, String resource, String sub, String name) {
        return RequestAttributes.resource(U, "get", group, resource, sub, "ns", name);
    }

    @Test
    void aRuleMatchesItsVerbGroupAndResourceOnly() {
        PolicyRule r = PolicyRule.resources(List.of("get", "list"), List.of("apps"), List.of("deployments"));
        assertThat(r.allows(get("apps", "deployments", "", "web"))).isTrue();
        assertThat(r.allows(get("", "deployments", "", "web"))).isFalse();
        assertThat(r.allows(get("apps", "replicasets", "", "web"))).isFalse();
        assertThat(r.allows(RequestAttributes.resource(U, "delete", "apps", "deployments", "", "ns", "web")))
                .isFalse();
    }

    @Test
    void aSubresourceIsMatchedOnlyByItsOwnNameOrStarSlashSubresource() {
        PolicyRule plain = PolicyRule.resources(List.of("get"), List.of("apps"), List.of("deployments"));
        PolicyRule scale = PolicyRule.resources(List.of("get"), List.of("apps"), List.of("deployments/scale"));
        PolicyRule anyScale = PolicyRule.resources(List.of("get"), List.of("*"), List.of("*/scale"));
        assertThat(plain.allows(get("apps", "deployments", "scale", "web"))).isFalse();
        assertThat(scale.allows(get("apps", "deployments", "scale", "web"))).isTrue();
        assertThat(scale.allows(get("apps", "deployments", "", "web"))).isFalse();
        assertThat(anyScale.allows(get("apps", "statefulsets", "scale", "db"))).isTrue();
        assertThat(anyScale.allows(get("apps", "statefulsets", "status", "db"))).isFalse();
    }

    @Test
    void resourceNamesLimitARuleToRequestsNamingOneOfThem() {
        PolicyRule r = new PolicyRule(List.of("get"), List.of(""), List.of("configmaps"), List.of("a"), List.of());
        assertThat(r.allows(get("", "configmaps", "", "a"))).isTrue();
        assertThat(r.allows(get("", "configmaps", "", "b"))).isFalse();
        assertThat(r.allows(get("", "configmaps", "", ""))).isFalse();
    }

    @Test
    void nonResourceUrlsMatchExactlyOrByAStarPrefix() {
        PolicyRule r = PolicyRule.urls(List.of("get"), List.of("/healthz", "/apis/*"));
        assertThat(r.allows(RequestAttributes.nonResource(U, "get", "/healthz")))
                .isTrue();
        assertThat(r.allows(RequestAttributes.nonResource(U, "get", "/healthz/etcd")))
                .isFalse();
        assertThat(r.allows(RequestAttributes.nonResource(U, "get", "/apis/apps/v1")))
                .isTrue();
        assertThat(r.allows(RequestAttributes.nonResource(U, "post", "/apis/apps/v1")))
                .isFalse();
        assertThat(r.allows(get("", "pods", "", ""))).isFalse();
    }

    @Test
    void coveredByNeedsEveryVerbResourceAndNameToBeHeld() {
        List<PolicyRule> held = List.of(
                PolicyRule.resources(List.of("get", "list"), List.of(""), List.of("pods", "configmaps")),
                new PolicyRule(List.of("update"), List.of(""), List.of("configmaps"), List.of("a"), List.of()),
                PolicyRule.resources(List.of("*"), List.of("apps"), List.of("*/scale")));
        assertThat(PolicyRule.resources(List.of("get"), List.of(""), List.of("pods"))
                        .coveredBy(held))
                .isTrue();
        assertThat(PolicyRule.resources(List.of("get", "watch"), List.of(""), List.of("pods"))
                        .coveredBy(held))
                .isFalse();
        assertThat(new PolicyRule(List.of("update"), List.of(""), List.of("configmaps"), List.of("a"), List.of())
                        .coveredBy(held))
                .isTrue();
        assertThat(PolicyRule.resources(List.of("update"), List.of(""), List.of("configmaps"))
                        .coveredBy(held))
                .as("a rule for every configmap is more than a rule for one")
                .isFalse();
        assertThat(PolicyRule.resources(List.of("patch"), List.of("apps"), List.of("deployments/scale"))
                        .coveredBy(held))
                .isTrue();
        assertThat(PolicyRule.urls(List.of("get"), List.of("/metrics")).coveredBy(held))
                .isFalse();
        assertThat(PolicyRule.urls(List.of("get"), List.of("/metrics"))
                        .coveredBy(List.of(PolicyRule.urls(List.of("get"), List.of("/*")))))
                .isTrue();
    }

    @Test
    void printsAsKubeApiserverPrintsMissingRules() {
        assertThat(PolicyRule.resources(List.of("get", "list"), List.of(""), List.of("secrets"))
                        .toString())
                .isEqualTo("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\"]}");
    }
}
