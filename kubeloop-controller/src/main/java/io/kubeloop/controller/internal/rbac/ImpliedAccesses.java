package io.kubeloop.controller.internal.rbac;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.internal.CreateOnUpdate;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.controller.rbac.ApiAccess;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The authorizations an API server makes for a write beyond its own verb, which a real cluster refuses with
 * 403 when missing although no request names them:
 *
 * <ul>
 *   <li>{@code create} for a server-side apply of an object (it creates the object when missing — on some
 *       run, on some cluster, so every apply counts) and for a PUT of an object of a kind that creates on
 *       update ({@link CreateOnUpdate}); not for subresources, which never create.</li>
 *   <li>{@code update} on the owner's {@code finalizers} subresource, by the owner's name, for every owner
 *       reference with {@code blockOwnerDeletion: true} a create, update or patch sets (what a controller
 *       reference sets), as clusters with the {@code OwnerReferencesPermissionEnforcement} admission plugin
 *       (OpenShift) require; in the object's namespace when the owner is namespaced. The owner's resource is
 *       the scheme's mapping of its kind, else the kind's guessed plural (lower case plus {@code s}, as
 *       apimachinery guesses), taken as namespaced.</li>
 *   <li>{@code delete} on the object for a patch (merge, strategic merge or JSON) that sets its owner
 *       references: that plugin requires it of a change of an existing object's references (an adoption).
 *       An update (PUT) or apply that changes them is not recognized: the recorder does not know the stored
 *       references.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe over an immutable {@link Scheme}.
 */
public final class ImpliedAccesses {

    private static final String APPLY = "application/apply-patch";

    private ImpliedAccesses() {}

    /**
     * The accesses {@code request} implies besides itself.
     *
     * @param request the request's own attributes
     * @param contentType the request's {@code Content-Type}, or null
     * @param body the request's body, or null; anything but JSON is read as carrying no owner references
     * @param scheme maps owners' kinds to their resources
     * @return the implied accesses, possibly none
     */
    public static List<ApiAccess> of(ApiAccess.Resource request, String contentType, byte[] body, Scheme scheme) {
        String verb = request.verb();
        if (!verb.equals("create") && !verb.equals("update") && !verb.equals("patch")) {
            return List.of();
        }
        Set<ApiAccess> out = new LinkedHashSet<>();
        String mediaType =
                contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        boolean apply = verb.equals("patch") && mediaType.startsWith(APPLY);
        boolean main = request.subresource().isEmpty();
        if (main && (apply || verb.equals("update") && CreateOnUpdate.allowed(request.group(), request.resource()))) {
            out.add(withVerb(request, "create"));
        }
        Optional<List<JsonNode>> refs = ownerReferences(mediaType, body);
        for (JsonNode ref : refs.orElse(List.of())) {
            if (ref.path("blockOwnerDeletion").asBoolean(false)) {
                finalizersOf(ref, request.namespace(), scheme).ifPresent(out::add);
            }
        }
        if (verb.equals("patch") && !apply && refs.isPresent()) {
            out.add(withVerb(request, "delete"));
        }
        return List.copyOf(out);
    }

    /** The owner references the body sets (possibly none, to remove them all), or empty when it sets none. */
    private static Optional<List<JsonNode>> ownerReferences(String mediaType, byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = KubeJson.mapper().readTree(body);
        } catch (JacksonException notJson) {
            return Optional.empty();
        }
        if (mediaType.equals("application/json-patch+json") && root.isArray()) {
            List<JsonNode> refs = new ArrayList<>();
            boolean sets = false;
            for (JsonNode op : root) {
                String kind = op.path("op").asString("");
                String path = op.path("path").asString("");
                if ((kind.equals("add") || kind.equals("replace") || kind.equals("remove"))
                        && path.startsWith("/metadata/ownerReferences")) {
                    sets = true;
                    JsonNode value = op.path("value");
                    if (value.isArray()) {
                        value.forEach(refs::add);
                    } else if (value.isObject()) {
                        refs.add(value);
                    }
                }
            }
            return sets ? Optional.of(refs) : Optional.empty();
        }
        JsonNode list = root.path("metadata").path("ownerReferences");
        if (list.isNull()) {
            return Optional.of(List.of()); // a merge patch removing them all
        }
        if (!list.isArray()) {
            return Optional.empty();
        }
        List<JsonNode> refs = new ArrayList<>();
        list.forEach(refs::add);
        return Optional.of(refs);
    }

    private static ApiAccess withVerb(ApiAccess.Resource r, String verb) {
        return new ApiAccess.Resource(verb, r.group(), r.resource(), r.subresource(), r.namespace(), r.name());
    }

    private static Optional<ApiAccess> finalizersOf(JsonNode ref, String namespace, Scheme scheme) {
        String apiVersion = ref.path("apiVersion").asString("");
        String kind = ref.path("kind").asString("");
        String name = ref.path("name").asString("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            return Optional.empty();
        }
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        Optional<ResourceMapping> mapping = scheme.mappingOf(new GroupVersionKind(group, version, kind));
        String resource = mapping.map(ResourceMapping::resource).orElseGet(() -> ResourceMapping.guessResource(kind));
        boolean namespaced = mapping.map(ResourceMapping::namespaced).orElse(true);
        return Optional.of(
                new ApiAccess.Resource("update", group, resource, "finalizers", namespaced ? namespace : "", name));
    }
}
