package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.apiserver.internal.auth.UserInfo;
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

    /**
     * The {@code request} variable of admission expressions (an AdmissionRequest's fields), its {@code kind}
     * and {@code resource} in {@code as}'s version (the one a rule matched, see {@link MatchResources}), its
     * {@code requestKind} and {@code requestResource} in the request's own.
     */
    Map<String, Object> celValue(ResourceDefinition as) {
        Map<String, Object> kind = Map.of("group", as.group(), "version", as.version(), "kind", as.kind());
        Map<String, Object> res = Map.of("group", as.group(), "version", as.version(), "resource", as.plural());
        Map<String, Object> requestKind =
                Map.of("group", resource.group(), "version", resource.version(), "kind", resource.kind());
        Map<String, Object> requestRes =
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
        out.put("requestKind", requestKind);
        out.put("requestResource", requestRes);
        out.put("requestSubResource", subresource);
        out.put("name", name);
        out.put("namespace", namespace == null ? "" : namespace);
        out.put("operation", operation);
        out.put("userInfo", userInfo);
        out.put("dryRun", dryRun);
        return out;
    }

    /** {@code object} in {@code as}'s version (converted when it is not the request's), or null. */
    ObjectNode object(ResourceDefinition as) {
        return inVersion(object, as);
    }

    /** {@code oldObject} in {@code as}'s version (converted when it is not the request's), or null. */
    ObjectNode oldObject(ResourceDefinition as) {
        return inVersion(oldObject, as);
    }

    private ObjectNode inVersion(ObjectNode o, ResourceDefinition as) {
        return o == null || as.version().equals(resource.version())
                ? o
                : resource.conversion().convert(o, as.apiVersion());
    }
}
