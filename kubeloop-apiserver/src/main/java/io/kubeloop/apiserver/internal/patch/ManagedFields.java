package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code metadata.managedFields} bookkeeping for writes that are not server-side apply (create,
 * update, JSON/merge/strategic patch), as apiserver's field manager does it, and the shared helpers
 * {@link ServerSideApply} uses.
 *
 * <p>A write by manager M compares the old and new object: every entry loses the fields the write
 * added, changed or removed; if the write added or changed any, M's {@code Update} entry (keyed by
 * manager, operation, apiVersion and subresource) gains them and its {@code time} becomes now. Entries
 * left empty are dropped; past {@value #MAX_UPDATE_MANAGERS} {@code Update} entries the oldest are
 * folded into {@code ancient-changes} entries per apiVersion. The metadata fields the real server
 * never tracks ({@link #STRIPPED}) and the caller's ignored (reset) fields are never owned. Entries are
 * sorted: Apply before Update, then by time, manager, apiVersion, subresource; {@code time} has
 * second precision.
 *
 * <p>Stateless and thread-safe; inputs are never modified.
 */
public final class ManagedFields {

    /** apiserver's default cap on {@code Update} entries. */
    public static final int MAX_UPDATE_MANAGERS = 10;

    /** The manager name old {@code Update} entries are folded into. */
    public static final String ANCIENT_CHANGES = "ancient-changes";

    /** The paths never part of a field set (apiserver's {@code stripMetaManager}). */
    public static final FieldSet STRIPPED = FieldSet.of(
            FieldPath.of("apiVersion"),
            FieldPath.of("kind"),
            FieldPath.of("metadata"),
            FieldPath.of("metadata", "name"),
            FieldPath.of("metadata", "namespace"),
            FieldPath.of("metadata", "creationTimestamp"),
            FieldPath.of("metadata", "selfLink"),
            FieldPath.of("metadata", "uid"),
            FieldPath.of("metadata", "clusterName"),
            FieldPath.of("metadata", "generation"),
            FieldPath.of("metadata", "managedFields"),
            FieldPath.of("metadata", "resourceVersion"));

    private ManagedFields() {}

    /**
     * The fields a write to {@code subresource} ignores because the server resets them: {@code status}
     * for the main resource of a kind with a status subresource, {@code spec} for {@code status} writes,
     * nothing otherwise.
     */
    public static FieldSet resetFields(String subresource, boolean hasStatusSubresource) {
        if ("status".equals(subresource)) {
            return FieldSet.of(FieldPath.of("spec"));
        }
        if ((subresource == null || subresource.isEmpty()) && hasStatusSubresource) {
            return FieldSet.of(FieldPath.of("status"));
        }
        return FieldSet.EMPTY;
    }

    /**
     * Records a non-apply write.
     *
     * @param old the stored object, or {@code null} for a create
     * @param updated the object about to be stored (its {@code managedFields} are honoured when the
     *        client set them on a main-resource write, else the stored ones are carried over)
     * @param manager the field manager ({@code fieldManager}, else the User-Agent's first segment)
     * @param subresource {@code ""}/{@code null} for the main resource, e.g. {@code status}
     * @param apiVersion the version the request used, e.g. {@code apps/v1}
     * @param now the write time
     * @param schema the object's schema
     * @param ignored fields the server resets for this write (see {@link #resetFields})
     * @return {@code updated} with new {@code metadata.managedFields}: a new root and {@code metadata} that share
     *     every other member with {@code updated} (copy it before changing anything deeper)
     */
    public static ManagedObject updateForWrite(
            JsonNode old,
            JsonNode updated,
            String manager,
            String subresource,
            String apiVersion,
            Instant now,
            StrategicMergeSchema schema,
            FieldSet ignored) {
        Objects.requireNonNull(updated, "updated");
        String sub = subresource == null ? "" : subresource;
        Map<Id, Owned> entries = decode(sub.isEmpty() && hasEntries(updated) ? updated : old);
        JsonNode before = old == null ? Json.object() : shallowWithoutManagedFields(old);
        JsonNode after = shallowWithoutManagedFields(updated);
        ObjectFields.Comparison cmp = ObjectFields.compare(before, after, schema);
        FieldSet changed = cmp.changed().withoutPrefixes(ignored).difference(STRIPPED);
        FieldSet lost = changed.union(cmp.removed().withoutPrefixes(ignored));
        Map<Id, Owned> next = new LinkedHashMap<>();
        entries.forEach((id, owned) -> next.put(id, owned.withSet(owned.set().difference(lost))));
        Id self = new Id(manager == null || manager.isEmpty() ? "unknown" : manager, "Update", apiVersion, sub);
        if (!changed.isEmpty()) {
            Owned previous = next.get(self);
            FieldSet set = previous == null ? changed : previous.set().union(changed);
            next.put(self, new Owned(set, now.truncatedTo(ChronoUnit.SECONDS)));
        }
        next.values().removeIf(o -> o.set().isEmpty());
        capUpdateManagers(next);
        return withEntries(after, next);
    }

    // ---- shared with ServerSideApply

    /** The identity of an entry: Apply entries have no apiVersion. */
    record Id(String manager, String operation, String apiVersion, String subresource) {
        Id {
            subresource = subresource == null ? "" : subresource;
            if (operation.equals("Apply")) {
                apiVersion = null;
            }
        }

        /** How conflict messages name the manager. */
        String describe(String version) {
            String s = Json.quote(manager);
            if (!subresource.isEmpty()) {
                s += " with subresource " + Json.quote(subresource);
            }
            return operation.equals("Update") ? s + " using " + version : s;
        }
    }

    /** An entry's field set, its apiVersion and time. */
    record Owned(FieldSet set, Instant time, String apiVersion) {
        Owned(FieldSet set, Instant time) {
            this(set, time, null);
        }

        Owned withSet(FieldSet s) {
            return new Owned(s, time, apiVersion);
        }
    }

    static boolean hasEntries(JsonNode object) {
        JsonNode mf = object == null ? null : object.path("metadata").get("managedFields");
        return mf != null && mf.isArray() && !mf.isEmpty();
    }

    /** The entries of an object's managedFields; unreadable ones are dropped, as the real server resets them. */
    static Map<Id, Owned> decode(JsonNode object) {
        Map<Id, Owned> out = new LinkedHashMap<>();
        if (!hasEntries(object)) {
            return out;
        }
        for (JsonNode e : object.path("metadata").get("managedFields")) {
            try {
                ManagedFieldsEntry entry = KubeJson.mapper().treeToValue(e, ManagedFieldsEntry.class);
                if (entry.manager() == null || entry.operation() == null) {
                    continue;
                }
                Id id = new Id(entry.manager(), entry.operation(), entry.apiVersion(), entry.subresource());
                FieldSet set = FieldSet.fromFieldsV1(entry.fieldsV1());
                out.merge(
                        id,
                        new Owned(set, entry.time(), entry.apiVersion()),
                        (a, b) -> new Owned(a.set().union(b.set()), a.time(), a.apiVersion()));
            } catch (RuntimeException ignoredEntry) {
                return new LinkedHashMap<>();
            }
        }
        return out;
    }

    static JsonNode withoutManagedFields(JsonNode object) {
        JsonNode copy = object.deepCopy();
        if (copy.path("metadata").isObject()) {
            ((ObjectNode) copy.get("metadata")).remove("managedFields");
        }
        return copy;
    }

    /**
     * {@code object} without {@code metadata.managedFields}, copying only the root and {@code metadata}: every
     * other member is the caller's node, shared. Only for trees read, never changed, below those two levels.
     */
    private static JsonNode shallowWithoutManagedFields(JsonNode object) {
        if (!(object instanceof ObjectNode root)) {
            return withoutManagedFields(object);
        }
        ObjectNode copy = Json.object();
        copy.setAll(root);
        if (root.get("metadata") instanceof ObjectNode meta) {
            ObjectNode m = Json.object();
            m.setAll(meta);
            m.remove("managedFields");
            copy.set("metadata", m);
        }
        return copy;
    }

    /** The sorted entry records. */
    static List<ManagedFieldsEntry> encode(Map<Id, Owned> entries) {
        List<ManagedFieldsEntry> out = new ArrayList<>();
        entries.forEach((id, owned) -> out.add(new ManagedFieldsEntry(
                id.manager(),
                id.operation(),
                id.operation().equals("Apply") ? owned.apiVersion() : id.apiVersion(),
                owned.time(),
                "FieldsV1",
                owned.set().toFieldsV1(),
                id.subresource().isEmpty() ? null : id.subresource())));
        out.sort(Comparator.comparing(ManagedFieldsEntry::operation)
                .thenComparingLong(e -> e.time() == null ? 0 : e.time().getEpochSecond())
                .thenComparing(ManagedFieldsEntry::manager)
                .thenComparing(e -> e.apiVersion() == null ? "" : e.apiVersion())
                .thenComparing(e -> e.subresource() == null ? "" : e.subresource()));
        return out;
    }

    /** {@code object} (already without managedFields) with the entries set. */
    static ManagedObject withEntries(JsonNode object, Map<Id, Owned> entries) {
        List<ManagedFieldsEntry> list = encode(entries);
        ObjectNode out = (ObjectNode) object;
        if (!list.isEmpty()) {
            if (!out.path("metadata").isObject()) {
                out.set("metadata", Json.object());
            }
            ArrayNode array = Json.array();
            list.forEach(e -> array.add((JsonNode) KubeJson.mapper().valueToTree(e)));
            ((ObjectNode) out.get("metadata")).set("managedFields", array);
        }
        return new ManagedObject(out, list);
    }

    /** Folds the oldest Update entries into {@code ancient-changes} while there are too many. */
    private static void capUpdateManagers(Map<Id, Owned> entries) {
        List<Id> updaters = new ArrayList<>();
        entries.forEach((id, o) -> {
            if (id.operation().equals("Update")) {
                updaters.add(id);
            }
        });
        if (updaters.size() <= MAX_UPDATE_MANAGERS) {
            return;
        }
        updaters.sort(Comparator.<Id>comparingLong(id -> {
                    Instant t = entries.get(id).time();
                    return t == null ? 0 : t.getEpochSecond();
                })
                .thenComparing(Id::manager));
        Map<String, Id> firstPerVersion = new HashMap<>();
        int length = updaters.size();
        for (int i = 0; i < updaters.size() && length > MAX_UPDATE_MANAGERS; i++) {
            Id id = updaters.get(i);
            Owned owned = entries.get(id);
            String version = id.apiVersion();
            Id bucket = new Id(ANCIENT_CHANGES, "Update", version, "");
            Id first = firstPerVersion.get(version);
            if (first == null) {
                firstPerVersion.put(version, id);
                continue;
            }
            if (!entries.containsKey(bucket)) {
                entries.put(bucket, entries.remove(first));
            }
            Owned b = entries.get(bucket);
            entries.put(bucket, new Owned(owned.set().union(b.set()), owned.time()));
            entries.remove(id);
            length--;
        }
    }
}
