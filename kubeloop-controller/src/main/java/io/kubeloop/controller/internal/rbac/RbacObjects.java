package io.kubeloop.controller.internal.rbac;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.controller.rbac.PolicyRule;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The RBAC objects as kubebuilder's manifests have them: fields in the order {@code kubectl} and
 * controller-gen write them, rule fields in alphabetical order, empty rule fields left out.
 *
 * <p>Stateless.
 */
public final class RbacObjects {

    private static final String RBAC = "rbac.authorization.k8s.io";

    private RbacObjects() {}

    /** A ServiceAccount. */
    public static DynamicObject serviceAccount(String name, String namespace) {
        ObjectNode node = object("v1", "ServiceAccount", name, namespace);
        return DynamicObject.wrap(node);
    }

    /** A ClusterRole ({@code namespace} null) or a Role with {@code rules}. */
    public static DynamicObject role(String name, String namespace, List<PolicyRule> rules) {
        ObjectNode node = object(RBAC + "/v1", namespace == null ? "ClusterRole" : "Role", name, namespace);
        ArrayNode array = node.putArray("rules");
        for (PolicyRule rule : rules) {
            ObjectNode r = array.addObject();
            strings(r, "apiGroups", rule.apiGroups());
            strings(r, "nonResourceURLs", rule.nonResourceURLs());
            strings(r, "resourceNames", rule.resourceNames());
            strings(r, "resources", rule.resources());
            strings(r, "verbs", rule.verbs());
        }
        return DynamicObject.wrap(node);
    }

    /**
     * A ClusterRoleBinding ({@code namespace} null) of a ClusterRole, or a RoleBinding of a Role, to a
     * ServiceAccount.
     */
    public static DynamicObject binding(
            String name, String namespace, String roleName, String serviceAccount, String serviceAccountNamespace) {
        ObjectNode node =
                object(RBAC + "/v1", namespace == null ? "ClusterRoleBinding" : "RoleBinding", name, namespace);
        ObjectNode roleRef = node.putObject("roleRef");
        roleRef.put("apiGroup", RBAC);
        roleRef.put("kind", namespace == null ? "ClusterRole" : "Role");
        roleRef.put("name", roleName);
        ObjectNode subject = node.putArray("subjects").addObject();
        subject.put("kind", "ServiceAccount");
        subject.put("name", serviceAccount);
        subject.put("namespace", serviceAccountNamespace);
        return DynamicObject.wrap(node);
    }

    private static ObjectNode object(String apiVersion, String kind, String name, String namespace) {
        ObjectNode node = KubeJson.mapper().createObjectNode();
        node.put("apiVersion", apiVersion);
        node.put("kind", kind);
        ObjectNode metadata = node.putObject("metadata");
        metadata.put("name", name);
        if (namespace != null) {
            metadata.put("namespace", namespace);
        }
        return node;
    }

    private static void strings(ObjectNode node, String field, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode array = node.putArray(field);
            values.forEach(array::add);
        }
    }
}
