package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.apiserver.internal.patch.ManagedFields;
import io.kubeloop.apiserver.internal.patch.ManagedObject;
import io.kubeloop.apiserver.internal.storage.Metadata;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code metadata.managedFields} bookkeeping for writes that are not server-side apply (create, update,
 * JSON / merge / strategic patch), through the patch library's
 * {@link ManagedFields#updateForWrite}: the writer's {@code Update} entry gains
 * the fields it added or changed, other entries lose them, empty entries go, more than ten {@code Update}
 * entries fold into {@code ancient-changes}; fields the server resets for the write ({@code status} on the
 * main resource of a kind with a status subresource, {@code spec} on {@code status}) are never owned.
 *
 * <p>Stateless and thread-safe.
 */
public final class ManagedFieldsRecorder {

    private ManagedFieldsRecorder() {}

    /**
     * Records an Update by {@code manager} turning {@code old} (null on create) into {@code updated}, in place:
     * {@code updated}'s {@code metadata.managedFields} are replaced (removed when no entry is left).
     *
     * @param def the resource written (its kind picks the field-set schema)
     * @param subresource {@code ""} for the main resource, e.g. {@code status}
     */
    public static void recordUpdate(
            ResourceDefinition def,
            ObjectNode updated,
            ObjectNode old,
            String manager,
            String subresource,
            Instant now) {
        ManagedObject result = ManagedFields.updateForWrite(
                old,
                updated,
                manager,
                subresource,
                def.apiVersion(),
                now,
                LibraryPatchApplier.schemaOf(def),
                LibraryPatchApplier.resetFields(def, subresource));
        JsonNode entries = result.object().path("metadata").get("managedFields");
        ObjectNode meta = Metadata.metadata(updated);
        if (entries == null || entries.isEmpty()) {
            meta.remove("managedFields");
        } else {
            meta.set("managedFields", entries);
        }
    }
}
