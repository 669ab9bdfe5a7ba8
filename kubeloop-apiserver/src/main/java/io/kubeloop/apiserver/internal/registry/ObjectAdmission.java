package io.kubeloop.apiserver.internal.registry;

import tools.jackson.databind.node.ObjectNode;

/**
 * A request's last check of an object it writes: called by {@link ObjectRegistry} on every create, update,
 * patch and apply after validation and defaulting, before the object is stored, and on every delete; for updates and patches under
 * the store lock (it may read the store from that thread; keep it short) unless the request
 * {@linkplain WriteContext#admitsOutsideLock() admits outside the lock}.
 *
 * <p><b>Thread safety.</b> Called on the request's thread.
 */
@FunctionalInterface
public interface ObjectAdmission {

    /** Admits everything. */
    ObjectAdmission NONE = (definition, object, old) -> {};

    /**
     * Checks {@code object}.
     *
     * @param definition the resource written
     * @param object the object about to be stored (do not modify); null on delete
     * @param old the stored object on update and delete, else null (do not modify)
     * @throws io.kubeloop.api.errors.ApiException to refuse the write
     */
    void admit(ResourceDefinition definition, ObjectNode object, ObjectNode old);
}
