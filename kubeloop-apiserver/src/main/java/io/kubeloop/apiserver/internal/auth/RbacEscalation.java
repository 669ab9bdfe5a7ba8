package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * RBAC's escalation prevention, as kube-apiserver enforces it on writes of RBAC objects: nobody creates or
 * changes a Role or ClusterRole granting a permission they do not hold themselves (in that namespace, or
 * cluster-wide for a ClusterRole) unless they may {@code escalate} it, and nobody binds a role whose
 * permissions they do not hold unless they may {@code bind} it (by name); an {@code aggregationRule} needs
 * cluster-admin rights. Members of {@code system:masters} are not checked.
 *
 * <p>As kube-apiserver authorizes them: {@code escalate} names the object the request's URL names, so a
 * create (a POST, whose URL names nothing) is authorized on the name {@code ""} and a rule limited to
 * resource names never allows it; {@code bind} names the referenced role, in the binding's namespace. An
 * update that changes only what the garbage collector changes (owner references, finalizers) is not
 * checked. Binding a role that does not exist without {@code bind} on it is a 404 naming the missing role.
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
     * @param requestName the name in the request's URL, {@code ""} for a create by POST
     * @param old the stored object an update changes, or null for a create
     * @throws ForbiddenException naming the permissions not held
     * @throws io.kubeloop.api.errors.NotFoundException when a binding refers to a role that does not exist and
     *     the user may not {@code bind} it
     */
    public void check(
            UserInfo user, String resource, String namespace, String requestName, JsonNode object, JsonNode old) {
        if (user.inGroup(UserInfo.MASTERS) || onlyGarbageCollectorFieldsChange(object, old)) {
            return;
        }
        String name = object.path("metadata").path("name").asString("");
        switch (resource) {
            case "roles", "clusterroles" -> checkRole(user, resource, namespace, requestName, name, object);
            case "rolebindings", "clusterrolebindings" -> checkBinding(user, resource, namespace, name, object);
            default -> {}
        }
    }

    /**
     * Whether {@code object} differs from {@code old} in nothing but owner references and finalizers (and what
     * the server keeps itself: resource version, managed fields, self link).
     */
    static boolean onlyGarbageCollectorFieldsChange(JsonNode object, JsonNode old) {
        if (old == null) {
            return false;
        }
        return withoutGarbageCollectorFields(object).equals(withoutGarbageCollectorFields(old));
    }

    private static JsonNode withoutGarbageCollectorFields(JsonNode object) {
        JsonNode copy = object.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode meta) {
            meta.remove(List.of("ownerReferences", "finalizers", "selfLink", "managedFields", "resourceVersion"));
        }
        return copy;
    }

    private void checkRole(
            UserInfo user, String resource, String namespace, String requestName, String name, JsonNode role) {
        if (allowed(user, "escalate", resource, namespace, requestName)) {
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
            throw ApiErrors.notFound(GROUP, roleResource, roleName);
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
