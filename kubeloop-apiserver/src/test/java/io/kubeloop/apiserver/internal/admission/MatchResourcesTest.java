package io.kubeloop.apiserver.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.auth.UserInfo;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Admission rules match operations, groups, resources and subresources, names, scope and labels as kube-apiserver's. */
class MatchResourcesTest {

    private static final ResourceRegistry RESOURCES = new ResourceRegistry();
    private static final ResourceDefinition DEPLOYMENTS =
            RESOURCES.find("apps", "v1", "deployments").orElseThrow();
    private static final ResourceDefinition NODES =
            RESOURCES.find("", "v1", "nodes").orElseThrow();

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    private static AdmissionRequest request(ResourceDefinition def, String op, String sub, String labels) {
        ObjectNode object = (ObjectNode) json("{'metadata':{'name':'x','labels':" + labels + "}}");
        return new AdmissionRequest(
                def, op, def.namespaced() ? "ns" : null, "x", sub, object, null, UserInfo.anonymous(), false);
    }

    private static boolean matches(String match, AdmissionRequest r) {
        return MatchResources.matches(json(match), "resourceRules", r, ns -> Optional.of(Map.of("team", "a")));
    }

    @Test
    void resourcesAndSubresourcesMatchAsWritten() {
        String deployments = "{'resourceRules':[{'apiGroups':['apps'],'apiVersions':['v1'],'operations':['*'],"
                + "'resources':[%s]}]}";
        AdmissionRequest main = request(DEPLOYMENTS, "UPDATE", "", "{}");
        AdmissionRequest scale = request(DEPLOYMENTS, "UPDATE", "scale", "{}");
        assertThat(matches(deployments.formatted("'deployments'"), main)).isTrue();
        assertThat(matches(deployments.formatted("'deployments'"), scale)).isFalse();
        assertThat(matches(deployments.formatted("'deployments/scale'"), scale)).isTrue();
        assertThat(matches(deployments.formatted("'deployments/*'"), scale)).isTrue();
        assertThat(matches(deployments.formatted("'*/scale'"), scale)).isTrue();
        assertThat(matches(deployments.formatted("'*'"), scale)).isFalse();
        assertThat(matches(deployments.formatted("'*/*'"), scale)).isTrue();
    }

    @Test
    void operationsGroupsNamesScopeAndExclusions() {
        String rule = "{'resourceRules':[{'apiGroups':['%s'],'apiVersions':['*'],'operations':['%s'],"
                + "'resources':['*'],'scope':'%s','resourceNames':%s}]%s}";
        AdmissionRequest create = request(DEPLOYMENTS, "CREATE", "", "{}");
        assertThat(matches(rule.formatted("apps", "CREATE", "*", "[]", ""), create))
                .isTrue();
        assertThat(matches(rule.formatted("apps", "UPDATE", "*", "[]", ""), create))
                .isFalse();
        assertThat(matches(rule.formatted("", "CREATE", "*", "[]", ""), create)).isFalse();
        assertThat(matches(rule.formatted("apps", "CREATE", "Cluster", "[]", ""), create))
                .isFalse();
        assertThat(matches(rule.formatted("*", "CREATE", "Cluster", "[]", ""), request(NODES, "CREATE", "", "{}")))
                .isTrue();
        assertThat(matches(rule.formatted("apps", "CREATE", "*", "['y']", ""), create))
                .isFalse();
        String exclude = ",'excludeResourceRules':[{'apiGroups':['apps'],'apiVersions':['*'],'operations':['*'],"
                + "'resources':['deployments']}]";
        assertThat(matches(rule.formatted("apps", "CREATE", "*", "[]", exclude), create))
                .isFalse();
    }

    @Test
    void namespaceAndObjectSelectors() {
        String base = "{'resourceRules':[{'apiGroups':['*'],'apiVersions':['*'],'operations':['*'],'resources':['*']}]";
        AdmissionRequest labelled = request(DEPLOYMENTS, "CREATE", "", "{'tier':'web'}");
        assertThat(matches(base + ",'namespaceSelector':{'matchLabels':{'team':'a'}}}", labelled))
                .isTrue();
        assertThat(matches(base + ",'namespaceSelector':{'matchLabels':{'team':'b'}}}", labelled))
                .isFalse();
        assertThat(matches(
                        base + ",'namespaceSelector':{'matchLabels':{'team':'b'}}}",
                        request(NODES, "CREATE", "", "{}")))
                .as("cluster-scoped objects are not filtered by namespace")
                .isTrue();
        assertThat(matches(
                        base
                                + ",'objectSelector':{'matchExpressions':[{'key':'tier','operator':'In','values':['web']}]}}",
                        labelled))
                .isTrue();
        assertThat(matches(base + ",'objectSelector':{'matchLabels':{'tier':'db'}}}", labelled))
                .isFalse();
    }
}
