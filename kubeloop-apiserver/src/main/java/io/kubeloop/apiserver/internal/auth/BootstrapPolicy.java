package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The RBAC objects a cluster starts with, as kube-apiserver's bootstrap policy defines them:
 * {@code cluster-admin} (bound to {@code system:masters}), the user-facing {@code admin}, {@code edit} and
 * {@code view} (aggregated from ClusterRoles labelled {@code rbac.authorization.k8s.io/aggregate-to-…}, so
 * a CRD's roles can extend them), {@code system:discovery}, {@code system:basic-user} (access reviews of
 * oneself) and {@code system:public-info-viewer} with their bindings. Each carries the
 * {@code kubernetes.io/bootstrapping: rbac-defaults} label and the {@code autoupdate} annotation.
 *
 * <p>Stateless.
 */
public final class BootstrapPolicy {

    private BootstrapPolicy() {}

    private static final String AGGREGATE = "rbac.authorization.k8s.io/aggregate-to-";
    private static final List<String> READ = List.of("get", "list", "watch");
    private static final List<String> WRITE = List.of("create", "delete", "deletecollection", "patch", "update");
    private static final List<String> ALL =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    /** The bootstrap ClusterRoles, aggregated ones with their rules already filled in. */
    public static List<ObjectNode> clusterRoles() {
        List<ObjectNode> out = new ArrayList<>();
        out.add(role(
                "cluster-admin",
                Map.of(),
                List.of(
                        PolicyRule.resources(List.of("*"), List.of("*"), List.of("*")),
                        PolicyRule.urls(List.of("*"), List.of("*")))));
        out.add(role(
                "system:discovery",
                Map.of(),
                List.of(PolicyRule.urls(
                        List.of("get"),
                        List.of(
                                "/api",
                                "/api/*",
                                "/apis",
                                "/apis/*",
                                "/healthz",
                                "/livez",
                                "/openapi",
                                "/openapi/*",
                                "/readyz",
                                "/version",
                                "/version/")))));
        out.add(role(
                "system:public-info-viewer",
                Map.of(),
                List.of(PolicyRule.urls(
                        List.of("get"), List.of("/healthz", "/livez", "/readyz", "/version", "/version/")))));
        out.add(role(
                "system:basic-user",
                Map.of(),
                List.of(
                        PolicyRule.resources(
                                List.of("create"),
                                List.of("authorization.k8s.io"),
                                List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews")),
                        PolicyRule.resources(
                                List.of("create"), List.of("authentication.k8s.io"), List.of("selfsubjectreviews")))));
        List<PolicyRule> view = viewRules();
        List<PolicyRule> edit = editRules();
        List<PolicyRule> admin = adminRules();
        out.add(role("system:aggregate-to-view", Map.of(AGGREGATE + "view", "true"), view));
        out.add(role("system:aggregate-to-edit", Map.of(AGGREGATE + "edit", "true"), edit));
        out.add(role("system:aggregate-to-admin", Map.of(AGGREGATE + "admin", "true"), admin));
        // as the aggregation controller orders them: the matching roles' rules by role name
        List<PolicyRule> viewAll = view;
        List<PolicyRule> editAll = concat(edit, viewAll); // system:aggregate-to-edit, view
        List<PolicyRule> adminAll = concat(editAll, admin); // edit, system:aggregate-to-admin
        out.add(aggregated("view", Map.of(AGGREGATE + "edit", "true"), "view", viewAll));
        out.add(aggregated("edit", Map.of(AGGREGATE + "admin", "true"), "edit", editAll));
        out.add(aggregated("admin", Map.of(), "admin", adminAll));
        return out;
    }

    /** The bootstrap ClusterRoleBindings. */
    public static List<ObjectNode> clusterRoleBindings() {
        return List.of(
                binding("cluster-admin", "cluster-admin", List.of(UserInfo.MASTERS)),
                binding("system:discovery", "system:discovery", List.of(UserInfo.AUTHENTICATED)),
                binding("system:basic-user", "system:basic-user", List.of(UserInfo.AUTHENTICATED)),
                binding(
                        "system:public-info-viewer",
                        "system:public-info-viewer",
                        List.of(UserInfo.AUTHENTICATED, UserInfo.UNAUTHENTICATED)));
    }

    private static List<PolicyRule> viewRules() {
        return List.of(
                PolicyRule.resources(
                        READ,
                        List.of(""),
                        List.of(
                                "configmaps",
                                "endpoints",
                                "persistentvolumeclaims",
                                "persistentvolumeclaims/status",
                                "pods",
                                "replicationcontrollers",
                                "replicationcontrollers/scale",
                                "serviceaccounts",
                                "services",
                                "services/status")),
                PolicyRule.resources(
                        READ,
                        List.of(""),
                        List.of(
                                "bindings",
                                "events",
                                "limitranges",
                                "namespaces/status",
                                "pods/log",
                                "pods/status",
                                "replicationcontrollers/status",
                                "resourcequotas",
                                "resourcequotas/status")),
                PolicyRule.resources(READ, List.of(""), List.of("namespaces")),
                PolicyRule.resources(READ, List.of("discovery.k8s.io"), List.of("endpointslices")),
                PolicyRule.resources(
                        READ,
                        List.of("apps"),
                        List.of(
                                "controllerrevisions",
                                "daemonsets",
                                "daemonsets/status",
                                "deployments",
                                "deployments/scale",
                                "deployments/status",
                                "replicasets",
                                "replicasets/scale",
                                "replicasets/status",
                                "statefulsets",
                                "statefulsets/scale",
                                "statefulsets/status")),
                PolicyRule.resources(
                        READ,
                        List.of("autoscaling"),
                        List.of("horizontalpodautoscalers", "horizontalpodautoscalers/status")),
                PolicyRule.resources(
                        READ, List.of("batch"), List.of("cronjobs", "cronjobs/status", "jobs", "jobs/status")),
                PolicyRule.resources(
                        READ, List.of("policy"), List.of("poddisruptionbudgets", "poddisruptionbudgets/status")),
                PolicyRule.resources(
                        READ,
                        List.of("networking.k8s.io"),
                        List.of("ingresses", "ingresses/status", "networkpolicies")));
    }

    private static List<PolicyRule> editRules() {
        return List.of(
                PolicyRule.resources(
                        READ,
                        List.of(""),
                        List.of(
                                "pods/attach",
                                "pods/exec",
                                "pods/portforward",
                                "pods/proxy",
                                "secrets",
                                "services/proxy")),
                PolicyRule.resources(List.of("impersonate"), List.of(""), List.of("serviceaccounts")),
                PolicyRule.resources(
                        WRITE,
                        List.of(""),
                        List.of("pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy")),
                PolicyRule.resources(List.of("create"), List.of(""), List.of("pods/eviction")),
                PolicyRule.resources(
                        WRITE,
                        List.of(""),
                        List.of(
                                "configmaps",
                                "events",
                                "persistentvolumeclaims",
                                "replicationcontrollers",
                                "replicationcontrollers/scale",
                                "secrets",
                                "serviceaccounts",
                                "services",
                                "services/proxy")),
                PolicyRule.resources(List.of("create"), List.of(""), List.of("serviceaccounts/token")),
                PolicyRule.resources(
                        WRITE,
                        List.of("apps"),
                        List.of(
                                "daemonsets",
                                "deployments",
                                "deployments/rollback",
                                "deployments/scale",
                                "replicasets",
                                "replicasets/scale",
                                "statefulsets",
                                "statefulsets/scale")),
                PolicyRule.resources(WRITE, List.of("autoscaling"), List.of("horizontalpodautoscalers")),
                PolicyRule.resources(WRITE, List.of("batch"), List.of("cronjobs", "jobs")),
                PolicyRule.resources(WRITE, List.of("policy"), List.of("poddisruptionbudgets")),
                PolicyRule.resources(WRITE, List.of("networking.k8s.io"), List.of("ingresses", "networkpolicies")),
                PolicyRule.resources(ALL, List.of("coordination.k8s.io"), List.of("leases")));
    }

    private static List<PolicyRule> adminRules() {
        return List.of(
                PolicyRule.resources(
                        List.of("create"), List.of("authorization.k8s.io"), List.of("localsubjectaccessreviews")),
                PolicyRule.resources(ALL, List.of("rbac.authorization.k8s.io"), List.of("rolebindings", "roles")));
    }

    private static List<PolicyRule> concat(List<PolicyRule> a, List<PolicyRule> b) {
        List<PolicyRule> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static ObjectNode role(String name, Map<String, String> labels, List<PolicyRule> rules) {
        ObjectNode n = object("ClusterRole", name, labels);
        ArrayNode r = n.putArray("rules");
        rules.forEach(rule -> r.add(rule.toJson()));
        return n;
    }

    private static ObjectNode aggregated(
            String name, Map<String, String> labels, String aggregateFrom, List<PolicyRule> rules) {
        ObjectNode n = role(name, labels, rules);
        n.putObject("aggregationRule")
                .putArray("clusterRoleSelectors")
                .addObject()
                .putObject("matchLabels")
                .put(AGGREGATE + aggregateFrom, "true");
        return n;
    }

    private static ObjectNode binding(String name, String role, List<String> groups) {
        ObjectNode n = object("ClusterRoleBinding", name, Map.of());
        n.putObject("roleRef")
                .put("apiGroup", "rbac.authorization.k8s.io")
                .put("kind", "ClusterRole")
                .put("name", role);
        ArrayNode subjects = n.putArray("subjects");
        for (String g : groups) {
            subjects.addObject()
                    .put("apiGroup", "rbac.authorization.k8s.io")
                    .put("kind", "Group")
                    .put("name", g);
        }
        return n;
    }

    private static ObjectNode object(String kind, String name, Map<String, String> labels) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", kind);
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", name);
        meta.putObject("annotations").put("rbac.authorization.kubernetes.io/autoupdate", "true");
        ObjectNode l = meta.putObject("labels");
        new TreeMap<>(labels).forEach(l::put);
        l.put("kubernetes.io/bootstrapping", "rbac-defaults");
        return n;
    }
}
