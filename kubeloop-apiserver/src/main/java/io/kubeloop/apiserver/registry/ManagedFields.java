package io.kubeloop.apiserver.registry;

import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Minimal {@code metadata.managedFields} bookkeeping for non-apply writes: one {@code Update} entry per
 * (manager, subresource) whose {@code fieldsV1} holds the fields that manager set or changed, merged
 * with what it owned before.
 *
 * <p>TODO(lead): the server-side-apply library computes exact field sets (list keys {@code k:}/{@code v:},
 * ownership transfer, {@code ancient-changes}); route {@link ObjectRegistry}'s call here through it.
 *
 * <p>Stateless and thread-safe.
 */
public final class ManagedFields {

    private static final Set<String> UNTRACKED_META = Set.of("name", "namespace", "uid", "resourceVersion",
            "generation", "creationTimestamp", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds",
            "selfLink", "generateName");

    private ManagedFields() {
    }

    /**
     * Records an Update by {@code manager} turning {@code old} (null on create) into {@code updated}.
     * Writes only when the manager changed a field (or on create).
     */
    public static void recordUpdate(ObjectNode updated, ObjectNode old, String manager, String apiVersion,
                                    String subresource, Instant now) {
        ObjectNode changed = KubeJson.mapper().createObjectNode();
        diff(updated, old, changed, true);
        ObjectNode meta = io.kubeloop.apiserver.storage.Metadata.metadata(updated);
        JsonNode existing = old == null ? null : old.path("metadata").get("managedFields");
        ArrayNode entries = existing instanceof ArrayNode a ? a.deepCopy() : KubeJson.mapper().createArrayNode();
        if (changed.isEmpty() && old != null) {
            meta.set("managedFields", entries);
            if (entries.isEmpty()) {
                meta.remove("managedFields");
            }
            return;
        }
        ObjectNode entry = null;
        for (JsonNode e : entries) {
            if (manager.equals(e.path("manager").asString("")) && "Update".equals(e.path("operation").asString(""))
                    && subresource.equals(e.path("subresource").asString(""))) {
                entry = (ObjectNode) e;
            }
        }
        if (entry == null) {
            entry = entries.addObject();
            entry.put("manager", manager);
            entry.put("operation", "Update");
        }
        entry.put("apiVersion", apiVersion);
        entry.put("time", now.truncatedTo(ChronoUnit.SECONDS).toString());
        entry.put("fieldsType", "FieldsV1");
        JsonNode owned = entry.get("fieldsV1");
        ObjectNode merged = owned instanceof ObjectNode o ? o : KubeJson.mapper().createObjectNode();
        merge(merged, changed);
        entry.set("fieldsV1", merged);
        if (!subresource.isEmpty()) {
            entry.put("subresource", subresource);
        }
        meta.set("managedFields", entries);
    }

    /** Adds to {@code out} (FieldsV1 shape) every field of {@code now} that differs from {@code before}. */
    private static void diff(JsonNode now, JsonNode before, ObjectNode out, boolean top) {
        for (Map.Entry<String, JsonNode> e : now.properties()) {
            String k = e.getKey();
            if (top && (k.equals("apiVersion") || k.equals("kind"))) {
                continue;
            }
            JsonNode b = before == null ? null : before.get(k);
            JsonNode v = e.getValue();
            if (top && k.equals("metadata")) {
                ObjectNode sub = KubeJson.mapper().createObjectNode();
                for (Map.Entry<String, JsonNode> m : v.properties()) {
                    if (!UNTRACKED_META.contains(m.getKey())) {
                        JsonNode mb = b == null ? null : b.get(m.getKey());
                        addIfChanged(sub, m.getKey(), m.getValue(), mb);
                    }
                }
                if (!sub.isEmpty()) {
                    out.set("f:metadata", sub);
                }
                continue;
            }
            addIfChanged(out, k, v, b);
        }
    }

    private static void addIfChanged(ObjectNode out, String k, JsonNode v, JsonNode b) {
        if (v.isObject() && !v.isEmpty()) {
            ObjectNode sub = KubeJson.mapper().createObjectNode();
            diff(v, b != null && b.isObject() ? b : null, sub, false);
            if (!sub.isEmpty()) {
                if (b == null) {
                    sub.putObject(".");
                }
                out.set("f:" + k, sub);
            }
        } else if (!v.equals(b)) {
            out.putObject("f:" + k);
        }
    }

    private static void merge(ObjectNode into, ObjectNode from) {
        for (Map.Entry<String, JsonNode> e : from.properties()) {
            JsonNode existing = into.get(e.getKey());
            if (existing instanceof ObjectNode eo && e.getValue() instanceof ObjectNode fo) {
                merge(eo, fo);
            } else {
                into.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }
}
