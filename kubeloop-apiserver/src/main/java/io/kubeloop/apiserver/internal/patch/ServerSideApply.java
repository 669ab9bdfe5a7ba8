package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.errors.Status;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * Server-side apply ({@code application/apply-patch+yaml}) on JSON trees, following
 * structured-merge-diff's {@code Updater.Apply} as kube-apiserver runs it:
 * <ol>
 *   <li>the applied configuration is merged over the live object: objects member by member (atomic
 *       ones replaced), associative lists item by item by their key fields, sets value by value,
 *       atomic lists replaced; a {@code null} in the configuration deletes;</li>
 *   <li>the applier's {@code Apply} entry becomes exactly the configuration's field set;</li>
 *   <li>fields the applier owned before and no longer applies are removed unless another manager
 *       owns them (or something below them);</li>
 *   <li>fields the result adds or changes that other managers own are conflicts: without
 *       {@code force} a 409 listing them the way the real server does
 *       ({@code Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1:
 *       .spec.replicas}, one {@code FieldManagerConflict} cause per field); with {@code force} the
 *       other managers lose them;</li>
 *   <li>other managers also lose fields the result removes; empty entries are dropped.</li>
 * </ol>
 * Applying an unchanged configuration changes nothing, not even the entry's {@code time}. The
 * configuration must not carry {@code metadata.managedFields} (400), and its associative lists need
 * their key fields without duplicates (500 like the real "failed to create typed patch object").
 * Checking {@code apiVersion}/{@code kind}/name against the URL, {@code fieldManager} presence and
 * resetting ignored fields (e.g. {@code status}) in the stored object are the caller's job.
 *
 * <p>Stateless and thread-safe; inputs are never modified.
 */
public final class ServerSideApply {

    private ServerSideApply() {}

    /** {@link #apply(JsonNode, JsonNode, String, boolean, String, String, Instant, StrategicMergeSchema, FieldSet)}
     * for the main resource with no ignored fields. */
    public static ManagedObject apply(
            JsonNode live,
            JsonNode config,
            String manager,
            boolean force,
            String apiVersion,
            Instant now,
            StrategicMergeSchema schema) {
        return apply(live, config, manager, force, apiVersion, "", now, schema, FieldSet.EMPTY);
    }

    /**
     * Applies {@code config} as {@code manager}.
     *
     * @param live the stored object, or {@code null} when the apply creates it
     * @param config the applied configuration (the request body, decoded)
     * @param manager the {@code fieldManager}
     * @param force whether to take over conflicting fields
     * @param apiVersion the version the request used, recorded in the entry
     * @param subresource {@code ""}/{@code null} for the main resource, e.g. {@code status}
     * @param now the write time ({@code time} of the entry, second precision)
     * @param schema the object's schema ({@link StrategicMergeSchemas})
     * @param ignored fields the server resets for this write ({@link ManagedFields#resetFields}); never owned
     * @return the merged object with updated {@code metadata.managedFields}
     * @throws PatchException 409 on conflicts without force, 400 for a config carrying managedFields
     */
    public static ManagedObject apply(
            JsonNode live,
            JsonNode config,
            String manager,
            boolean force,
            String apiVersion,
            String subresource,
            Instant now,
            StrategicMergeSchema schema,
            FieldSet ignored) {
        Objects.requireNonNull(manager, "manager");
        if (config == null || !config.isObject()) {
            throw PatchException.badRequest("error decoding YAML: apply configuration must be an object");
        }
        JsonNode configuredFields = config.path("metadata").get("managedFields");
        if (configuredFields != null && !configuredFields.isNull()) {
            throw PatchException.badRequest("metadata.managedFields must be nil");
        }
        String sub = subresource == null ? "" : subresource;
        Map<ManagedFields.Id, ManagedFields.Owned> entries = ManagedFields.decode(live);
        JsonNode before = live == null ? Json.object() : ManagedFields.withoutManagedFields(live);

        FieldSet applied = ObjectFields.of(config, schema, true)
                .difference(ManagedFields.STRIPPED)
                .withoutPrefixes(ignored);
        ManagedFields.Id self = new ManagedFields.Id(manager, "Apply", apiVersion, sub);
        ManagedFields.Owned last = entries.get(self);
        FieldSet keep = applied;
        for (Map.Entry<ManagedFields.Id, ManagedFields.Owned> e : entries.entrySet()) {
            if (!e.getKey().equals(self)) {
                keep = keep.union(e.getValue().set());
            }
        }
        JsonNode merged = ObjectFields.merge(before, config, schema, FieldPath.ROOT);
        if (last != null) {
            ObjectFields.remove(merged, last.set().difference(keep), keep, schema);
        }

        ObjectFields.Comparison cmp = ObjectFields.compare(before, merged, schema);
        FieldSet changed = cmp.changed().withoutPrefixes(ignored);
        FieldSet removed = cmp.removed().withoutPrefixes(ignored);
        Map<ManagedFields.Id, FieldSet> conflicts = new LinkedHashMap<>();
        entries.forEach((id, owned) -> {
            if (!id.equals(self)) {
                FieldSet c = owned.set().intersection(changed);
                if (!c.isEmpty()) {
                    conflicts.put(id, c);
                }
            }
        });
        if (!force && !conflicts.isEmpty()) {
            throw conflictError(conflicts, entries);
        }

        Map<ManagedFields.Id, ManagedFields.Owned> next = new LinkedHashMap<>();
        entries.forEach((id, owned) -> {
            if (!id.equals(self)) {
                FieldSet c = conflicts.getOrDefault(id, FieldSet.EMPTY);
                next.put(id, owned.withSet(owned.set().difference(c).difference(removed)));
            }
        });
        boolean unchanged = Json.deepEquals(before, merged)
                && last != null
                && last.set().equals(applied)
                && Objects.equals(last.apiVersion(), apiVersion);
        next.put(
                self,
                new ManagedFields.Owned(
                        applied, unchanged ? last.time() : now.truncatedTo(ChronoUnit.SECONDS), apiVersion));
        next.values().removeIf(o -> o.set().isEmpty());
        if (unchanged && next.equals(entries)) {
            return ManagedFields.withEntries(merged, entries);
        }
        return ManagedFields.withEntries(merged, next);
    }

    private static PatchException conflictError(
            Map<ManagedFields.Id, FieldSet> conflicts, Map<ManagedFields.Id, ManagedFields.Owned> entries) {
        List<ManagedFields.Id> managers = new ArrayList<>(conflicts.keySet());
        managers.sort(Comparator.comparing(ManagedFields.Id::manager)
                .thenComparing(ManagedFields.Id::operation)
                .thenComparing(id -> id.apiVersion() == null ? "" : id.apiVersion())
                .thenComparing(ManagedFields.Id::subresource));
        List<Status.Cause> causes = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        int count = 0;
        String single = null;
        for (ManagedFields.Id id : managers) {
            String who =
                    id.describe(id.operation().equals("Apply") ? entries.get(id).apiVersion() : id.apiVersion());
            lines.add("conflicts with " + who + ":");
            for (FieldPath p : conflicts.get(id).paths()) {
                causes.add(new Status.Cause("FieldManagerConflict", "conflict with " + who, p.toString()));
                lines.add("- " + p);
                single = "conflict with " + who + ": " + p;
                count++;
            }
        }
        String message = count == 1
                ? "Apply failed with 1 conflict: " + single
                : "Apply failed with " + count + " conflicts: " + String.join("\n", lines);
        return PatchException.conflict(message, causes);
    }

    /** The object's field set as an applier of {@code object} would own it (for tests and tools). */
    public static FieldSet fieldSetOf(JsonNode object, StrategicMergeSchema schema) {
        return ObjectFields.of(object, schema, false).difference(ManagedFields.STRIPPED);
    }
}
