package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.apiserver.internal.auth.UserInfo;
import io.kubeloop.apiserver.internal.cel.Expression;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One write as admission sees it.
 *
 * @param resource the resource written
 * @param operation {@code CREATE}, {@code UPDATE} or {@code DELETE}
 * @param namespace the request's namespace, or null for a cluster-scoped resource
 * @param name the object's name ({@code ""} when generated)
 * @param subresource the subresource written ({@code status}, {@code scale}…), or {@code ""}
 * @param object the object to be stored (null on DELETE)
 * @param oldObject the stored object (null on CREATE)
 * @param user who asks
 * @param dryRun the write is a dry run
 */
public record AdmissionRequest(
        ResourceDefinition resource,
        String operation,
        String namespace,
        String name,
        String subresource,
        ObjectNode object,
        ObjectNode oldObject,
        UserInfo user,
        boolean dryRun) {

    public AdmissionRequest {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(subresource, "subresource");
        Objects.requireNonNull(user, "user");
    }

    /** {@code plural} or {@code plural/subresource}, as admission rules name resources. */
    String resourcePath() {
        return subresource.isEmpty() ? resource.plural() : resource.plural() + "/" + subresource;
    }

    /** The {@code request} variable of admission expressions (an AdmissionRequest's fields). */
    Map<String, Object> celValue() {
        Map<String, Object> kind =
                Map.of("group", resource.group(), "version", resource.version(), "kind", resource.kind());
        Map<String, Object> res =
                Map.of("group", resource.group(), "version", resource.version(), "resource", resource.plural());
        Map<String, Object> userInfo = new LinkedHashMap<>();
        userInfo.put("username", user.name());
        userInfo.put("uid", user.uid() == null ? "" : user.uid());
        userInfo.put("groups", user.groups());
        userInfo.put("extra", user.extra());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", kind);
        out.put("resource", res);
        out.put("subResource", subresource);
        out.put("requestKind", kind);
        out.put("requestResource", res);
        out.put("requestSubResource", subresource);
        out.put("name", name);
        out.put("namespace", namespace == null ? "" : namespace);
        out.put("operation", operation);
        out.put("userInfo", userInfo);
        out.put("dryRun", dryRun);
        return out;
    }

    /** {@code object} as CEL sees it (CEL's null when absent). */
    Object objectValue() {
        return Expression.value(object);
    }

    /** {@code oldObject} as CEL sees it (CEL's null when absent). */
    Object oldObjectValue() {
        return Expression.value(oldObject);
    }
}
