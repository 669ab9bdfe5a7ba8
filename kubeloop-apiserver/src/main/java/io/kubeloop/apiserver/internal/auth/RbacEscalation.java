package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * RBAC's escalation prevention, as kube-apiserver enforces it on writes of RBAC objects: nobody creates or
 * changes a Role or ClusterRole granting a permission they do not hold themselves (in that namespace, or
 * cluster-wide for a ClusterRole) unless they may {@code escalate} it, and nobody binds a role whose
 * permissions they do not hold unless they may {@code bind} it (by name); an {@code aggregationRule} needs
 * cluster-admin rights. Members of {@code system:masters} are not checked.
 *
 * <p>Thread-safe (stateless over thread-safe collaborators).
 */
public final class RbacEscalation {

    private static final String GROUP = "rbac.authorization.k8s.io";
    private static final List<PolicyRule> EVERYTHING = List.of(
            PolicyRule.resources(List.of("*"), List.of("*"), List.of("*")),
            PolicyRule.urls(List.of("*"), List.of("*")));

    private final RbacAuthorizer authorizer;
    private final PolicySource policy;

    public RbacEscalation(RbacAuthorizer authorizer, PolicySource policy) {
        this.authorizer = authorizer;
        this.policy = policy;
    }

    /**
     * Checks that {@code user} may store {@code object} of {@code resource} ({@code roles},
     * {@code clusterroles}, {@code rolebindings} or {@code clusterrolebindings}) in {@code namespace}.
     *
     * @throws ForbiddenException naming the permissions not held
     */
    public void check(UserInfo user, String resource, String namespace, JsonNode object) {
        if (user.inGroup(UserInfo.MASTERS)) {
            return;
        }
        String name = object.path("metadata").path("name").asString("");
        switch (resource) {
            case "roles", "clusterroles" -> checkRole(user, resource, namespace, name, object);
            case "rolebindings", "clusterrolebindings" -> checkBinding(user, resource, namespace, name, object);
            default -> {}
        }
    }

    private void checkRole(UserInfo user, String resource, String namespace, String name, JsonNode role) {
        if (allowed(user, "escalate", resource, namespace, name)) {
            return;
        }
        RbacAuthorizer.Rules held = authorizer.rulesFor(user, namespace);
        if (resource.equals("clusterroles") && role.has("aggregationRule")) {
            List<PolicyRule> missing =
                    EVERYTHING.stream().filter(r -> !r.coveredBy(held.rules())).toList();
            if (!missing.isEmpty()) {
                throw forbidden(resource, name, "must have cluster-admin privileges to use the aggregationRule");
            }
            return;
        }
        requireHeld(user, resource, name, PolicyRule.ofRole(role), held);
    }

    private void checkBinding(UserInfo user, String resource, String namespace, String name, JsonNode binding) {
        String kind = binding.path("roleRef").path("kind").asString("");
        String roleName = binding.path("roleRef").path("name").asString("");
        String roleResource = kind.equals("Role") ? "roles" : "clusterroles";
        if (allowed(user, "bind", roleResource, namespace, roleName)) {
            return;
        }
        Optional<JsonNode> role = kind.equals("Role") ? policy.role(namespace, roleName) : policy.clusterRole(roleName);
        if (role.isEmpty()) {
            throw forbidden(
                    resource,
                    name,
                    roleResource.substring(0, roleResource.length() - 1) + "." + GROUP + " \"" + roleName
                            + "\" not found");
        }
        requireHeld(user, resource, name, PolicyRule.ofRole(role.get()), authorizer.rulesFor(user, namespace));
    }

    private void requireHeld(
            UserInfo user, String resource, String name, List<PolicyRule> granted, RbacAuthorizer.Rules held) {
        List<PolicyRule> missing = new ArrayList<>();
        for (PolicyRule r : granted) {
            if (!r.coveredBy(held.rules())) {
                missing.add(r);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String groups = user.groups().stream().map(g -> "\"" + g + "\"").collect(Collectors.joining(" ", "[", "]"));
        String why = "user \"" + user.name() + "\" (groups=" + groups
                + ") is attempting to grant RBAC permissions not currently held:\n"
                + missing.stream().map(PolicyRule::toString).collect(Collectors.joining("\n"))
                + (held.errors().isEmpty() ? "" : "; resolution errors: " + RbacAuthorizer.aggregate(held.errors()));
        throw forbidden(resource, name, why);
    }

    private boolean allowed(UserInfo user, String verb, String resource, String namespace, String name) {
        return authorizer
                .authorize(RequestAttributes.resource(user, verb, GROUP, resource, "", namespace, name))
                .allowed();
    }

    private static ForbiddenException forbidden(String resource, String name, String why) {
        return new ForbiddenException(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                resource + "." + GROUP + " \"" + name + "\" is forbidden: " + why,
                "Forbidden",
                new Status.Details(name, GROUP, resource, null, null, null),
                403));
    }
}
