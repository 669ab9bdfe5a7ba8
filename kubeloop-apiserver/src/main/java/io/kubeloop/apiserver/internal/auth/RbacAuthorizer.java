package io.kubeloop.apiserver.internal.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Authorization as kube-apiserver's authorizer chain decides it: members of {@code system:masters} may do
 * everything; anyone else may do what an RBAC rule bound to them allows. Bindings are read at each
 * decision, so a new RoleBinding takes effect at the next request: ClusterRoleBindings first, then the
 * RoleBindings of the request's namespace; a RoleBinding grants its Role (of its namespace) or ClusterRole
 * in its namespace only. A subject matches as a User by name, a Group by membership, or a ServiceAccount
 * by namespace (the binding's when the subject has none) and name. A binding whose role is missing grants
 * nothing and is named in the reason ({@code RBAC: clusterrole.rbac.authorization.k8s.io "x" not found}).
 *
 * <p>Thread-safe (stateless over a thread-safe {@link PolicySource}).
 */
public final class RbacAuthorizer {

    private final PolicySource policy;

    public RbacAuthorizer(PolicySource policy) {
        this.policy = policy;
    }

    /** The decision on {@code a}. */
    public Decision authorize(RequestAttributes a) {
        if (a.user().inGroup(UserInfo.MASTERS)) {
            return Decision.allow("");
        }
        List<String> errors = new ArrayList<>();
        String[] allowedBy = new String[1];
        visit(a.user(), a.namespace(), errors, (source, rule) -> {
            if (rule.allows(a)) {
                allowedBy[0] = source;
                return false;
            }
            return true;
        });
        if (allowedBy[0] != null) {
            return Decision.allow("RBAC: allowed by " + allowedBy[0]);
        }
        return Decision.deny(errors.isEmpty() ? "" : "RBAC: " + aggregate(errors));
    }

    /**
     * The rules that apply to {@code user} in {@code namespace} (cluster-wide rules and, for a non-empty
     * namespace, that namespace's), in binding order, and the errors met reading them.
     */
    public Rules rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        visit(user, namespace, errors, (source, rule) -> {
            rules.add(rule);
            return true;
        });
        return new Rules(rules, errors);
    }

    /** Rules and the errors met collecting them (missing roles). */
    public record Rules(List<PolicyRule> rules, List<String> errors) {}

    @FunctionalInterface
    private interface Visitor {
        /** Sees one rule and where it comes from; false stops the walk. */
        boolean visit(String source, PolicyRule rule);
    }

    private void visit(UserInfo user, String namespace, List<String> errors, Visitor visitor) {
        for (JsonNode binding : policy.clusterRoleBindings()) {
            String subject = matchingSubject(binding, user, "");
            if (subject == null) {
                continue;
            }
            String roleName = binding.path("roleRef").path("name").asString("");
            Optional<JsonNode> role = policy.clusterRole(roleName);
            if (role.isEmpty()) {
                errors.add("clusterrole.rbac.authorization.k8s.io \"" + roleName + "\" not found");
                continue;
            }
            String source =
                    "ClusterRoleBinding \"" + name(binding) + "\" of ClusterRole \"" + roleName + "\" to " + subject;
            for (PolicyRule rule : PolicyRule.ofRole(role.get())) {
                if (!visitor.visit(source, rule)) {
                    return;
                }
            }
        }
        if (namespace.isEmpty()) {
            return;
        }
        for (JsonNode binding : policy.roleBindings(namespace)) {
            String subject = matchingSubject(binding, user, namespace);
            if (subject == null) {
                continue;
            }
            String kind = binding.path("roleRef").path("kind").asString("");
            String roleName = binding.path("roleRef").path("name").asString("");
            Optional<JsonNode> role =
                    kind.equals("ClusterRole") ? policy.clusterRole(roleName) : policy.role(namespace, roleName);
            if (role.isEmpty()) {
                errors.add((kind.equals("ClusterRole") ? "clusterrole" : "role") + ".rbac.authorization.k8s.io \""
                        + roleName + "\" not found");
                continue;
            }
            String source = "RoleBinding \"" + name(binding) + "/" + namespace + "\" of " + kind + " \"" + roleName
                    + "\" to " + subject;
            for (PolicyRule rule : PolicyRule.ofRole(role.get())) {
                if (!visitor.visit(source, rule)) {
                    return;
                }
            }
        }
    }

    /** The description of the binding's first subject that is {@code user}, or null. */
    static String matchingSubject(JsonNode binding, UserInfo user, String bindingNamespace) {
        for (JsonNode s : binding.path("subjects")) {
            String kind = s.path("kind").asString("");
            String name = s.path("name").asString("");
            switch (kind) {
                case "User" -> {
                    if (user.name().equals(name)) {
                        return "User \"" + name + "\"";
                    }
                }
                case "Group" -> {
                    if (user.inGroup(name)) {
                        return "Group \"" + name + "\"";
                    }
                }
                case "ServiceAccount" -> {
                    String ns = s.path("namespace").asString("");
                    ns = ns.isEmpty() ? bindingNamespace : ns;
                    if (!ns.isEmpty() && user.name().equals(UserInfo.serviceAccountName(ns, name))) {
                        return "ServiceAccount \"" + name + "/" + ns + "\"";
                    }
                }
                default -> {}
            }
        }
        return null;
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asString("");
    }

    /** Go's aggregate error text: one error as is, several as {@code [a, b]}. */
    static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]";
    }
}
