package io.kubeloop.apiserver.internal.registry;

import tools.jackson.databind.node.ObjectNode;

/**
 * A request's mutating admission: called by {@link ObjectRegistry} on every create, update, patch and
 * apply before the object is validated, free to change it in place. When the request
 * {@linkplain WriteContext#admitsOutsideLock() admits outside the store's lock} it runs on the request's
 * thread with no lock held (it may block, e.g. on a webhook); the write then commits only if the object
 * did not change meanwhile, else everything runs again.
 *
 * <p><b>Thread safety.</b> Called on the request's thread.
 */
@FunctionalInterface
public interface ObjectMutation {

    /** Changes nothing. */
    ObjectMutation NONE = (definition, object, old) -> {};

    /**
     * Mutates {@code object}.
     *
     * @param definition the resource written
     * @param object the object to be validated and stored (may be changed)
     * @param old the stored object on update, else null (do not modify)
     * @throws io.kubeloop.api.errors.ApiException to refuse the write
     */
    void mutate(ResourceDefinition definition, ObjectNode object, ObjectNode old);
}
