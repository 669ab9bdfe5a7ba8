package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** RBAC's decisions over a fixed set of roles and bindings. */
class RbacAuthorizerTest {

    /** Roles and bindings held in lists (a unit-test stand-in for the server's storage). */
    private static final class Policy implements PolicySource {
        final List<JsonNode> clusterRoles = new ArrayList<>();
        final List<JsonNode> roles = new ArrayList<>();
        final List<JsonNode> clusterRoleBindings = new ArrayList<>();
        final List<JsonNode> roleBindings = new ArrayList<>();

        @Override
        public List<JsonNode> clusterRoleBindings() {
            return clusterRoleBindings;
        }

        @Override
        public List<JsonNode> roleBindings(String namespace) {
            return roleBindings.stream().filter(b -> ns(b).equals(namespace)).toList();
        }

        @Override
        public Optional<JsonNode> clusterRole(String name) {
            return clusterRoles.stream().filter(r -> name(r).equals(name)).findFirst();
        }

        @Override
        public Optional<JsonNode> role(String namespace, String name) {
            return roles.stream()
                    .filter(r -> ns(r).equals(namespace) && name(r).equals(name))
                    .findFirst();
        }

        private static String ns(JsonNode o) {
            return o.path("metadata").path("namespace").asString("");
        }

        private static String name(JsonNode o) {
            return o.path("metadata").path("name").asString("");
        }
    }

    private static JsonNode json(String s) {
        return KubeJson.mapper().readTree(s.replace('\'', '"'));
    }

    private final Policy policy = new Policy();
    private final RbacAuthorizer rbac = new RbacAuthorizer(policy);
    private final UserInfo robot =
            new UserInfo("system:serviceaccount:team:robot", "", UserInfo.serviceAccountGroups("team"), Map.of());

    private Decision ask(UserInfo user, String verb, String resource, String namespace) {
        return rbac.authorize(RequestAttributes.resource(user, verb, "", resource, "", namespace, ""));
    }

    @Test
    void nobodyButSystemMastersMayDoAnythingWithoutABinding() {
        assertThat(ask(robot, "get", "pods", "team").allowed()).isFalse();
        assertThat(ask(UserInfo.of("root", List.of(UserInfo.MASTERS)), "delete", "nodes", "")
                        .allowed())
                .isTrue();
    }

    @Test
    void aRoleBindingGrantsItsRoleInItsNamespaceOnlyToAServiceAccountOfTheBindingsNamespace() {
        policy.roles.add(json("{'metadata':{'name':'reader','namespace':'team'},"
                + "'rules':[{'apiGroups':[''],'resources':['pods'],'verbs':['get','list']}]}"));
        policy.roleBindings.add(json("{'metadata':{'name':'b','namespace':'team'},"
                + "'roleRef':{'kind':'Role','name':'reader'},'subjects':[{'kind':'ServiceAccount','name':'robot'}]}"));
        Decision d = ask(robot, "list", "pods", "team");
        assertThat(d.allowed()).isTrue();
        assertThat(d.reason())
                .isEqualTo(
                        "RBAC: allowed by RoleBinding \"b/team\" of Role \"reader\" to ServiceAccount \"robot/team\"");
        assertThat(ask(robot, "list", "pods", "other").allowed()).isFalse();
        assertThat(ask(robot, "list", "pods", "").allowed()).isFalse();
        assertThat(ask(robot, "delete", "pods", "team").allowed()).isFalse();
    }

    @Test
    void aClusterRoleBindingGrantsEverywhereToMembersOfItsGroup() {
        policy.clusterRoles.add(json("{'metadata':{'name':'ns-reader'},"
                + "'rules':[{'apiGroups':[''],'resources':['namespaces'],'verbs':['get']}]}"));
        policy.clusterRoleBindings.add(json("{'metadata':{'name':'all-sas'},"
                + "'roleRef':{'kind':'ClusterRole','name':'ns-reader'},"
                + "'subjects':[{'kind':'Group','name':'system:serviceaccounts'}]}"));
        assertThat(ask(robot, "get", "namespaces", "").allowed()).isTrue();
        assertThat(ask(UserInfo.of("alice", List.of("devs")), "get", "namespaces", "")
                        .allowed())
                .isFalse();
    }

    @Test
    void aBindingOfAMissingRoleGrantsNothingAndIsNamedInTheReason() {
        policy.clusterRoleBindings.add(json("{'metadata':{'name':'dangling'},"
                + "'roleRef':{'kind':'ClusterRole','name':'gone'},'subjects':[{'kind':'User','name':'alice'}]}"));
        Decision d = ask(UserInfo.of("alice", List.of()), "get", "pods", "team");
        assertThat(d.allowed()).isFalse();
        assertThat(d.reason()).isEqualTo("RBAC: clusterrole.rbac.authorization.k8s.io \"gone\" not found");
        assertThat(Forbidden.of(
                                RequestAttributes.resource(
                                        UserInfo.of("alice", List.of()), "get", "", "pods", "", "team", "p"),
                                d.reason())
                        .status()
                        .message())
                .isEqualTo("pods \"p\" is forbidden: User \"alice\" cannot get resource \"pods\" in API group \"\" in "
                        + "the namespace \"team\": RBAC: clusterrole.rbac.authorization.k8s.io \"gone\" not found");
    }

    @Test
    void aRoleBindingMayGrantAClusterRoleWithinItsNamespace() {
        policy.clusterRoles.add(json("{'metadata':{'name':'cm-writer'},"
                + "'rules':[{'apiGroups':[''],'resources':['configmaps'],'verbs':['*']}]}"));
        policy.roleBindings.add(json("{'metadata':{'name':'b','namespace':'team'},"
                + "'roleRef':{'kind':'ClusterRole','name':'cm-writer'},'subjects':[{'kind':'User','name':'alice'}]}"));
        UserInfo alice = UserInfo.of("alice", List.of());
        assertThat(ask(alice, "create", "configmaps", "team").allowed()).isTrue();
        assertThat(ask(alice, "create", "configmaps", "default").allowed()).isFalse();
        assertThat(rbac.rulesFor(alice, "team").rules())
                .containsExactly(PolicyRule.resources(List.of("*"), List.of(""), List.of("configmaps")));
        assertThat(rbac.rulesFor(alice, "default").rules()).isEmpty();
    }
}
