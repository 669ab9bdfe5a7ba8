package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.apiserver.internal.auth.Decision;
import io.kubeloop.apiserver.internal.auth.Forbidden;
import io.kubeloop.apiserver.internal.auth.RbacAuthorizer;
import io.kubeloop.apiserver.internal.auth.RequestAttributes;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver's {@code OwnerReferencesPermissionEnforcement} admission plugin (validating, on creates
 * and updates; the {@code pods/status} subresource exempt):
 *
 * <ul>
 *   <li>A write that changes nothing in {@code metadata.ownerReferences} (the same references, in the same
 *       order) passes. A create with any owner reference changes them.</li>
 *   <li>An update that changes them needs {@code delete} on the object written (its resource, subresource,
 *       namespace and name): {@code cannot set an ownerRef on a resource you can't delete: REASON, <nil>}. A
 *       create does not: whoever may create an object could as well not have created it.</li>
 *   <li>Every reference with {@code blockOwnerDeletion: true} that is new (by uid) or was not blocking
 *       before needs {@code update} on the owner's {@code finalizers} subresource, by the owner's name, in the
 *       written object's namespace when the owner is namespaced (cluster-wide otherwise):
 *       {@code cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers
 *       on: REASON, <nil>}. The owner's resource is found from the reference's {@code apiVersion} and
 *       {@code kind} among the served resources; none is {@code cannot set blockOwnerDeletion in this case
 *       because cannot find RESTMapping for APIVersion V Kind K: no matches for kind "K" in version "V"}. A user
 *       who may {@code update} {@code *}{@code /finalizers} in every group, cluster-wide, is not checked per
 *       reference.</li>
 * </ul>
 *
 * Refusals are 403s naming the object written, {@code RESOURCE[.GROUP] "NAME" is forbidden: …}, REASON being the
 * authorizer's ({@code ""} for RBAC without errors).
 *
 * <p>Thread-safe (stateless over thread-safe collaborators).
 */
public final class OwnerReferencesPermissionEnforcement {

    private final RbacAuthorizer authorizer;
    private final ResourceRegistry resources;

    /** The plugin deciding with {@code authorizer}, finding owners' resources among {@code resources}. */
    public OwnerReferencesPermissionEnforcement(RbacAuthorizer authorizer, ResourceRegistry resources) {
        this.authorizer = authorizer;
        this.resources = resources;
    }

    /**
     * Admits or refuses one write.
     *
     * @throws io.kubeloop.api.errors.ForbiddenException when the user may not make the change
     */
    public void validate(AdmissionRequest request) {
        boolean create = request.operation().equals("CREATE");
        if (!create && !request.operation().equals("UPDATE") || request.object() == null) {
            return;
        }
        ResourceDefinition def = request.resource();
        if (def.group().isEmpty()
                && def.plural().equals("pods")
                && request.subresource().equals("status")) {
            return;
        }
        List<JsonNode> refs = ownerReferences(request.object());
        if (!changing(refs, request.oldObject())) {
            return;
        }
        String namespace = request.namespace() == null ? "" : request.namespace();
        if (!create) {
            Decision d = authorizer.authorize(new RequestAttributes(
                    request.user(),
                    "delete",
                    true,
                    "",
                    def.group(),
                    def.version(),
                    def.plural(),
                    request.subresource(),
                    namespace,
                    request.name()));
            if (!d.allowed()) {
                throw refuse(
                        request, "cannot set an ownerRef on a resource you can't delete: " + d.reason() + ", <nil>");
            }
        }
        List<JsonNode> blocking = newlyBlocking(refs, request.oldObject());
        if (blocking.isEmpty() || mayFinalizeAnything(request)) {
            return;
        }
        for (JsonNode ref : blocking) {
            String apiVersion = ref.path("apiVersion").asString("");
            String kind = ref.path("kind").asString("");
            List<ResourceDefinition> owners;
            try {
                owners = mappings(apiVersion, kind);
            } catch (IllegalArgumentException noMapping) {
                throw refuse(
                        request,
                        "cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion "
                                + apiVersion + " Kind " + kind + ": " + noMapping.getMessage());
            }
            for (ResourceDefinition owner : owners) {
                Decision d = authorizer.authorize(new RequestAttributes(
                        request.user(),
                        "update",
                        true,
                        "",
                        owner.group(),
                        owner.version(),
                        owner.plural(),
                        "finalizers",
                        owner.namespaced() ? namespace : "",
                        ref.path("name").asString("")));
                if (!d.allowed()) {
                    throw refuse(
                            request,
                            "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set "
                                    + "finalizers on: " + d.reason() + ", <nil>");
                }
            }
        }
    }

    /** Whether the user may update the finalizers of anything anywhere (one check instead of one per owner). */
    private boolean mayFinalizeAnything(AdmissionRequest request) {
        return authorizer
                .authorize(
                        new RequestAttributes(request.user(), "update", true, "", "*", "*", "*", "finalizers", "", "*"))
                .allowed();
    }

    private static List<JsonNode> ownerReferences(JsonNode object) {
        List<JsonNode> out = new ArrayList<>();
        if (object != null) {
            object.path("metadata").path("ownerReferences").forEach(out::add);
        }
        return out;
    }

    /** Whether the references differ from the old object's: in number, or any one at its position. */
    private static boolean changing(List<JsonNode> refs, JsonNode old) {
        if (old == null) {
            return !refs.isEmpty();
        }
        List<JsonNode> before = ownerReferences(old);
        if (before.size() != refs.size()) {
            return true;
        }
        for (int i = 0; i < refs.size(); i++) {
            if (!before.get(i).equals(refs.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** The blocking references that are new (by uid) or were not blocking in the old object. */
    private static List<JsonNode> newlyBlocking(List<JsonNode> refs, JsonNode old) {
        Map<String, JsonNode> before = new HashMap<>();
        for (JsonNode r : ownerReferences(old)) {
            before.put(r.path("uid").asString(""), r);
        }
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode ref : refs) {
            if (!blocks(ref)) {
                continue;
            }
            JsonNode was = old == null ? null : before.get(ref.path("uid").asString(""));
            if (was == null || !blocks(was)) {
                out.add(ref);
            }
        }
        return out;
    }

    private static boolean blocks(JsonNode ref) {
        return ref.path("blockOwnerDeletion").asBoolean(false);
    }

    /**
     * The served resources of {@code kind} in the group and version of {@code apiVersion}, as a REST mapper
     * finds them.
     *
     * @throws IllegalArgumentException with the mapper's message when there is none, or the apiVersion is no
     *     group version
     */
    private List<ResourceDefinition> mappings(String apiVersion, String kind) {
        String group;
        String version;
        int slash = apiVersion.indexOf('/');
        if (apiVersion.indexOf('/', slash + 1) >= 0 && slash >= 0) {
            throw new IllegalArgumentException("unexpected GroupVersion string: " + apiVersion);
        }
        if (slash < 0) {
            group = "";
            version = apiVersion;
        } else {
            group = apiVersion.substring(0, slash);
            version = apiVersion.substring(slash + 1);
        }
        List<ResourceDefinition> found = resources.all().stream()
                .filter(d -> d.group().equals(group)
                        && d.version().equals(version)
                        && d.kind().equals(kind))
                .toList();
        if (found.isEmpty()) {
            throw new IllegalArgumentException(
                    "no matches for kind \"" + kind + "\" in version \"" + apiVersion + "\"");
        }
        return found;
    }

    private static ForbiddenException refuse(AdmissionRequest request, String why) {
        ResourceDefinition def = request.resource();
        String name = request.name().isEmpty() ? "Unknown" : request.name();
        return Forbidden.forbidden(def.group(), def.plural(), name, why);
    }
}
