package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.patch.JsonPatch;
import io.kubeloop.apiserver.internal.patch.MergePatch;
import io.kubeloop.apiserver.internal.patch.PatchException;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.client.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code scale} subresource: an {@code autoscaling/v1 Scale}
 * {@code {metadata, spec.replicas, status{replicas, selector}}} read from and written to the parent
 * object through its {@link ResourceDefinition.ScalePaths} (Deployments, ReplicaSets, StatefulSets, and
 * custom resources whose CRD declares {@code subresources.scale}).
 *
 * <p>GET builds the Scale; PUT writes {@code spec.replicas} into the parent (a normal update of the
 * parent: generation bumps, watchers see MODIFIED, status is untouched), honouring a
 * {@code metadata.resourceVersion} precondition (409 on mismatch); PATCH (merge, JSON, and strategic
 * merge, which equals merge for Scale) applies to the current Scale and then updates, retrying on
 * conflicts when the patch names no resourceVersion.
 *
 * <p><b>Thread safety.</b> Thread-safe; every write goes through {@link ObjectRegistry#update}.
 */
public final class ScaleSubresource {

    private static final int PATCH_RETRIES = 5;

    private final ObjectRegistry registry;

    /** The scale subresource over {@code registry}. */
    public ScaleSubresource(ObjectRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** GET {@code .../scale}. */
    public ObjectNode get(ResourceDefinition def, String namespace, String name) {
        return scaleOf(def, registry.get(def, namespace, name));
    }

    /** PUT {@code .../scale} with a Scale body. */
    public ObjectNode update(
            ResourceDefinition def, String namespace, String name, ObjectNode scale, WriteContext ctx) {
        String apiVersion = scale.path("apiVersion").asString("");
        String kind = scale.path("kind").asString("");
        if (!apiVersion.isEmpty() && !apiVersion.equals("autoscaling/v1") || !kind.isEmpty() && !kind.equals("Scale")) {
            throw ApiErrors.badRequest(
                    "the body of the request was not an autoscaling/v1 Scale (got " + apiVersion + ", " + kind + ")");
        }
        String bodyName = Metadata.text(scale, "name");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            throw ApiErrors.badRequest(
                    "the name of the object (" + bodyName + ") does not match the name on the URL (" + name + ")");
        }
        JsonNode replicas = scale.path("spec").path("replicas");
        long n = replicas.isMissingNode() || replicas.isNull()
                ? 0
                : replicas.isIntegralNumber() ? replicas.asLong() : -1;
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw ApiErrors.invalid(
                    "Scale.autoscaling",
                    "autoscaling",
                    "Scale",
                    name,
                    List.of(ApiErrors.FieldError.invalid(
                            "spec.replicas",
                            replicas.isNumber() ? replicas.numberValue() : replicas.toString(),
                            "must be greater than or equal to 0")));
        }
        String rv = Metadata.text(scale, "resourceVersion");
        for (int attempt = 0; ; attempt++) {
            StoredObject cur = registry.get(def, namespace, name);
            if (!rv.isEmpty() && !rv.equals(Long.toString(cur.resourceVersion()))) {
                throw ApiErrors.conflict(def, name, ApiErrors.MODIFIED);
            }
            ObjectNode next = cur.object().deepCopy();
            JsonPaths.set(
                    next,
                    def.scalePaths().specReplicas(),
                    KubeJson.mapper().getNodeFactory().numberNode(n));
            Metadata.setResourceVersion(next, cur.resourceVersion());
            try {
                return scaleOf(
                        def,
                        registry.update(def, namespace, name, "", next, ctx).object());
            } catch (ConflictException e) {
                if (!rv.isEmpty() || attempt >= PATCH_RETRIES) {
                    throw e;
                }
            }
        }
    }

    /** PATCH {@code .../scale}. */
    public ObjectNode patch(
            ResourceDefinition def, String namespace, String name, String contentType, byte[] body, WriteContext ctx) {
        PatchType type = ObjectRegistry.patchType(contentType)
                .filter(t -> t != PatchType.APPLY)
                .orElseThrow(() -> ApiErrors.unsupportedMediaType("the body of the request was in an unknown format - "
                        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                        + "application/strategic-merge-patch+json"));
        for (int attempt = 0; ; attempt++) {
            ObjectNode current = get(def, namespace, name);
            JsonNode patched;
            try {
                patched = switch (type) {
                    case JSON_PATCH -> JsonPatch.apply(current, body);
                    case MERGE, STRATEGIC_MERGE -> MergePatch.apply(current, body);
                    case APPLY -> throw new IllegalStateException("filtered above");
                };
            } catch (PatchException e) {
                throw ApiExceptions.from(e.toStatus());
            }
            if (!(patched instanceof ObjectNode scale)) {
                throw ApiErrors.badRequest("the patched Scale is not an object");
            }
            boolean pinned = !Metadata.text(scale, "resourceVersion").equals(Metadata.text(current, "resourceVersion"));
            try {
                return update(def, namespace, name, scale, ctx);
            } catch (ConflictException e) {
                if (pinned || attempt >= PATCH_RETRIES) {
                    throw e;
                }
            }
        }
    }

    /** The Scale of a parent object. */
    public static ObjectNode scaleOf(ResourceDefinition def, StoredObject parent) {
        ResourceDefinition.ScalePaths paths =
                Objects.requireNonNull(def.scalePaths(), "no scale paths for " + def.plural());
        ObjectNode o = parent.object();
        ObjectNode scale = KubeJson.mapper().createObjectNode();
        scale.put("kind", "Scale");
        scale.put("apiVersion", "autoscaling/v1");
        ObjectNode meta = scale.putObject("metadata");
        for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            String v = Metadata.text(o, f);
            if (!v.isEmpty()) {
                meta.put(f, v);
            }
        }
        ObjectNode spec = scale.putObject("spec");
        JsonNode specReplicas = JsonPaths.get(o, paths.specReplicas());
        if (specReplicas != null && specReplicas.asLong(0) != 0) {
            spec.put("replicas", specReplicas.asLong());
        }
        ObjectNode status = scale.putObject("status");
        JsonNode statusReplicas = paths.statusReplicas() == null ? null : JsonPaths.get(o, paths.statusReplicas());
        status.put("replicas", statusReplicas == null ? 0 : statusReplicas.asLong(0));
        JsonNode selector =
                paths.labelSelector() == null || paths.labelSelector().isEmpty()
                        ? null
                        : JsonPaths.get(o, paths.labelSelector());
        String sel = selector == null
                ? ""
                : selector.isString() ? selector.asString() : selector.isObject() ? formatSelector(selector) : "";
        if (!sel.isEmpty()) {
            status.put("selector", sel);
        }
        return scale;
    }

    /** A {@code metav1.LabelSelector} as its string form ({@code a=b,c in (d,e),!f}). */
    static String formatSelector(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        Map<String, String> labels = new TreeMap<>();
        selector.path("matchLabels")
                .properties()
                .forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
        labels.forEach((k, v) -> parts.add(k + "=" + v));
        for (JsonNode req : selector.path("matchExpressions")) {
            String key = req.path("key").asString("");
            List<String> values = new ArrayList<>();
            req.path("values").forEach(v -> values.add(v.asString()));
            values.sort(String::compareTo);
            switch (req.path("operator").asString("")) {
                case "In" -> parts.add(key + " in (" + String.join(",", values) + ")");
                case "NotIn" -> parts.add(key + " notin (" + String.join(",", values) + ")");
                case "Exists" -> parts.add(key);
                case "DoesNotExist" -> parts.add("!" + key);
                default -> {}
            }
        }
        parts.sort(String::compareTo);
        return String.join(",", parts);
    }
}
