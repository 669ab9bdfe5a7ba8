package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.client.PatchType;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seam for PATCH: turns the stored object and a patch body into the new object. The
 * {@code io.kubeloop.apiserver.internal.patch} library (strategic merge with built-in merge keys, server-side
 * apply with managedFields and conflicts) plugs in here as {@link LibraryPatchApplier}, the default.
 *
 * <p>Called under the store lock with a private copy of the current object.
 *
 * <p><b>Thread safety.</b> Implementations must be thread-safe.
 */
@FunctionalInterface
public interface PatchApplier {

    /**
     * The patched object.
     *
     * @param definition the resource (strategic merge is only for non-custom resources; the registry
     *        already answered 415 for custom ones)
     * @param current a mutable copy of the stored object, or null when it does not exist (only for
     *        {@link PatchType#APPLY}, which then creates)
     * @param type the patch type from the Content-Type
     * @param patch the request body
     * @param subresource {@code ""} for the main resource, else e.g. {@code status} (server-side apply does not
     *        own the fields the server resets for it)
     * @param context fieldManager, force, dry run, warnings
     * @throws io.kubeloop.api.errors.BadRequestException 400 for a malformed patch document
     * @throws io.kubeloop.api.errors.InvalidException 422 for a failing JSON-patch {@code test} or path
     * @throws io.kubeloop.api.errors.ConflictException 409 for server-side apply conflicts
     * @throws io.kubeloop.api.errors.UnsupportedMediaTypeException 415 for types it cannot do
     */
    ObjectNode apply(
            ResourceDefinition definition,
            ObjectNode current,
            PatchType type,
            byte[] patch,
            String subresource,
            WriteContext context);
}
