package io.kubeloop.controller.internal.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.controller.rbac.ApiAccess.Resource;
import io.kubeloop.controller.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rules merged and ordered as controller-gen merges the rules of its RBAC markers. */
class RuleMergerTest {

    private static PolicyRule rule(String group, String resource, String... verbs) {
        return PolicyRule.forResources(group, List.of(resource), verbs);
    }

    @Test
    void rulesForTheSameGroupAndResourceGetTheUnionOfTheirVerbsSorted() {
        assertThat(RuleMerger.merge(List.of(
                        rule("apps", "deployments", "watch", "list", "get"),
                        rule("apps", "deployments", "update", "create", "get"))))
                .containsExactly(rule("apps", "deployments", "create", "get", "list", "update", "watch"));
    }

    @Test
    void resourcesWithTheSameVerbsShareARuleThenGroupsWithTheSameResourcesAndVerbs() {
        assertThat(RuleMerger.merge(List.of(
                        rule("apps", "deployments", "get", "list"),
                        rule("apps", "statefulsets", "list", "get"),
                        rule("batch", "deployments", "get", "list"),
                        rule("batch", "statefulsets", "get", "list"))))
                .containsExactly(new PolicyRule(
                        List.of("apps", "batch"),
                        List.of("deployments", "statefulsets"),
                        List.of(),
                        List.of("get", "list"),
                        List.of()));
    }

    @Test
    void aRuleNamingObjectsStaysApartFromOneForAllObjects() {
        assertThat(RuleMerger.merge(List.of(
                        rule("", "configmaps", "get").withResourceNames("b", "a"), rule("", "configmaps", "list"))))
                .containsExactly(
                        rule("", "configmaps", "list"),
                        rule("", "configmaps", "get").withResourceNames("a", "b"));
    }

    @Test
    void aStarVerbStandsAlone() {
        assertThat(RuleMerger.merge(List.of(rule("", "secrets", "get"), rule("", "secrets", "*"))))
                .containsExactly(rule("", "secrets", "*"));
    }

    @Test
    void nonResourceUrlsWithTheSameVerbsShareARule() {
        assertThat(RuleMerger.merge(List.of(
                        PolicyRule.forNonResourceUrls(List.of("/metrics"), "get"),
                        PolicyRule.forNonResourceUrls(List.of("/healthz"), "get"))))
                .containsExactly(PolicyRule.forNonResourceUrls(List.of("/healthz", "/metrics"), "get"));
    }

    @Test
    void rulesAreSortedByControllerGensKeyOfGroupsResourcesNamesAndUrls() {
        assertThat(RuleMerger.merge(List.of(
                        rule("samplecontroller.k8s.io", "foos", "get"),
                        rule("apps", "deployments", "create"),
                        rule("", "events", "create", "patch"),
                        rule("samplecontroller.k8s.io", "foos/status", "update"))))
                .containsExactly(
                        rule("", "events", "create", "patch"),
                        rule("apps", "deployments", "create"),
                        rule("samplecontroller.k8s.io", "foos", "get"),
                        rule("samplecontroller.k8s.io", "foos/status", "update"));
    }

    @Test
    void theOrderOfTheGivenRulesDoesNotChangeTheResult() {
        List<PolicyRule> rules = new ArrayList<>(List.of(
                rule("apps", "deployments", "get", "list", "watch"),
                rule("apps", "deployments", "create", "update"),
                rule("", "events", "create", "patch"),
                rule("", "configmaps", "get", "list", "watch"),
                rule("batch", "jobs", "get"),
                PolicyRule.forNonResourceUrls(List.of("/metrics"), "get")));
        List<PolicyRule> expected = RuleMerger.merge(rules);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(rules, random);
            assertThat(RuleMerger.merge(rules)).isEqualTo(expected);
        }
    }

    @Test
    void theMergedRulesAllowExactlyWhatTheGivenOnesAllow() {
        List<PolicyRule> rules = List.of(
                rule("apps", "deployments", "get"), rule("apps", "replicasets", "get"), rule("", "pods", "delete"));
        List<PolicyRule> merged = RuleMerger.merge(rules);
        for (String group : List.of("", "apps")) {
            for (String resource : List.of("deployments", "replicasets", "pods")) {
                for (String verb : List.of("get", "delete")) {
                    var access = new Resource(verb, group, resource, "", "ns", "x");
                    assertThat(merged.stream().anyMatch(r -> r.allows(access)))
                            .as(access.toString())
                            .isEqualTo(rules.stream().anyMatch(r -> r.allows(access)));
                }
            }
        }
    }
}
