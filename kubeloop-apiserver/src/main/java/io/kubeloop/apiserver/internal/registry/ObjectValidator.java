package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.client.FieldValidation;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seam for schema validation: structural-schema checks, pruning and defaulting of custom resources and
 * built-in kinds (the {@code io.kubeloop.apiserver.internal.schema} library plugs in here).
 *
 * <p>Called by {@link ObjectRegistry} on every create, update and patch after the server has set its
 * own fields and before the object is stored, under the store lock (keep it CPU-only).
 *
 * <p><b>Thread safety.</b> Implementations must be thread-safe.
 */
@FunctionalInterface
public interface ObjectValidator {

    /**
     * Validates {@code object} in place: may prune unknown fields and apply defaults.
     *
     * @param definition the resource served (its {@code custom()} flag tells CRs apart)
     * @param object the object about to be stored (mutable)
     * @param old the stored object for updates and patches, null on create (do not modify)
     * @param operation the write
     * @param context request parameters; unknown fields under {@link FieldValidation#WARN} become
     *        {@link WriteContext#warn warnings} ({@code unknown field "spec.x"})
     * @throws io.kubeloop.api.errors.InvalidException 422 with a cause per bad field
     * @throws io.kubeloop.api.errors.BadRequestException 400 for unknown fields under Strict on create/update
     */
    void validate(
            ResourceDefinition definition,
            ObjectNode object,
            ObjectNode old,
            Operation operation,
            WriteContext context);

    /** Accepts everything unchanged (until the schema library is wired in). */
    static ObjectValidator acceptAll() {
        return (d, o, old, op, ctx) -> {};
    }
}
