package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A binding's {@code roleRef} is immutable, as on kube-apiserver: an update that changes it is a 422
 * ({@code roleRef: Invalid value: …: cannot change roleRef}); a binding must be deleted and created again to
 * point at another role.
 *
 * <p>Stateless.
 */
public final class RoleRefs {

    private RoleRefs() {}

    /**
     * Refuses a change of {@code roleRef} between {@code old} and {@code object} of a RoleBinding or
     * ClusterRoleBinding; anything else passes.
     */
    public static void checkUnchanged(ResourceDefinition def, ObjectNode object, ObjectNode old) {
        if (old == null || !def.plural().endsWith("rolebindings")) {
            return;
        }
        JsonNode before = old.path("roleRef");
        JsonNode after = object.path("roleRef");
        if (!before.equals(after)) {
            throw ApiErrors.invalid(
                    def,
                    object.path("metadata").path("name").asString(""),
                    List.of(ApiErrors.FieldError.invalid("roleRef", after.toString(), "cannot change roleRef")));
        }
    }
}
