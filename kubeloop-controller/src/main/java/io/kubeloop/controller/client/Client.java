package io.kubeloop.controller.client;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.Scale;
import io.kubeloop.client.WriteOptions;

/**
 * What a reconciler reads and writes through: controller-runtime's {@code client.Client}. Reads
 * ({@link #get}, {@link #list}) come from the manager's {@link Cache} — no API call, the informer of
 * a type starting on its first read — and writes go to the API server, the {@code status} and
 * {@code scale} subresources included. Objects name their own
 * resource: their Java type (or a {@link io.kubeloop.api.DynamicObject}'s apiVersion and kind) gives
 * the kind, their metadata the namespace and name.
 *
 * {@snippet :
 * Foo foo = client.get(Foo.class, request.key());
 * Deployment dep = client.getOptional(Deployment.class, ObjectKey.of(ns, name))
 *         .orElseGet(() -> client.create(desired));
 * client.status().update(foo.withStatus(new Foo.Status(available)));
 * client.apply(desiredConfigMap, "foo-controller");
 * }
 *
 * <p>A write returns the object as the API server answered it (new resourceVersion, defaults
 * applied), a new object the caller owns. Failures are the typed
 * {@link io.kubeloop.api.errors.ApiException}s: {@link NotFoundException},
 * {@link io.kubeloop.api.errors.ConflictException} when the object changed since it was read,
 * {@link io.kubeloop.api.errors.AlreadyExistsException}…
 *
 * <p>The client of a {@link io.kubeloop.controller.ReconcileContext} stops working when its
 * controller stops: once its {@link io.kubeloop.controller.Cancellation} fired, every call throws
 * {@link java.util.concurrent.CancellationException} before anything is sent, so a process that lost
 * its leader lease writes nothing more.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface Client extends Reader {

    /**
     * Creates {@code object} (POST). Its namespace is its {@code metadata.namespace}.
     *
     * @param object the object, with a name or {@code generateName}
     * @param <T> its type
     * @return the created object
     * @throws io.kubeloop.api.errors.AlreadyExistsException when an object of that name exists
     */
    default <T> T create(T object) {
        return create(object, WriteOptions.none());
    }

    /**
     * {@link #create(Object)} with dry-run, field manager or field validation.
     *
     * @param object the object
     * @param options the write options
     * @param <T> its type
     * @return the created object
     */
    <T> T create(T object, WriteOptions options);

    /**
     * Replaces {@code object} (PUT), guarded by its resourceVersion: the update fails with a
     * {@link io.kubeloop.api.errors.ConflictException} when the object changed since it was read.
     * A status sent this way is ignored when the kind has a status subresource: use
     * {@link #status()}.
     *
     * @param object the changed object, as read (with its resourceVersion)
     * @param <T> its type
     * @return the updated object
     */
    default <T> T update(T object) {
        return update(object, WriteOptions.none());
    }

    /**
     * {@link #update(Object)} with write options.
     *
     * @param object the changed object
     * @param options the write options
     * @param <T> its type
     * @return the updated object
     */
    <T> T update(T object, WriteOptions options);

    /**
     * Patches the object named by {@code object}'s metadata.
     *
     * @param object names the object (kind, namespace, name); its other fields are not sent
     * @param type JSON merge, JSON patch or strategic merge
     * @param body the patch: a String, bytes, or an object Jackson writes
     * @param <T> the object's type
     * @return the patched object
     */
    default <T> T patch(T object, PatchType type, Object body) {
        return patch(object, type, body, PatchOptions.none());
    }

    /**
     * {@link #patch(Object, PatchType, Object)} with patch options.
     *
     * @param object names the object
     * @param type the patch type
     * @param body the patch
     * @param options the patch options
     * @param <T> the object's type
     * @return the patched object
     */
    <T> T patch(T object, PatchType type, Object body, PatchOptions options);

    /**
     * Server-side apply of {@code object} as the desired state of the fields {@code fieldManager}
     * owns: controller-runtime's {@code client.Apply}. The fields the server owns are left out of
     * what is sent — {@code metadata.managedFields}, {@code uid}, {@code creationTimestamp},
     * {@code generation}, {@code deletionTimestamp}, {@code selfLink}, {@code resourceVersion}
     * when empty, and {@code status} — so a reconciler applies the object it built, or one it read
     * and changed. A resourceVersion that is set is sent, and the server then applies only over
     * that version (a precondition). Conflicts with other managers fail the apply
     * ({@link io.kubeloop.api.errors.ConflictException}); {@link #apply(Object, PatchOptions)}
     * with {@link PatchOptions#forceApply} takes the fields over instead.
     *
     * @param object the desired state; its apiVersion and kind are filled from the scheme when unset
     * @param fieldManager who owns the applied fields, e.g. the controller's name
     * @param <T> its type
     * @return the object after the apply
     */
    default <T> T apply(T object, String fieldManager) {
        return apply(object, PatchOptions.apply(fieldManager));
    }

    /**
     * {@link #apply(Object, String)} with patch options: the field manager is required,
     * {@code force} takes conflicting fields over.
     *
     * @param object the desired state
     * @param options {@link PatchOptions#apply} or {@link PatchOptions#forceApply}, or built with a
     *     field manager
     * @param <T> its type
     * @return the object after the apply
     * @throws IllegalArgumentException without a field manager
     */
    <T> T apply(T object, PatchOptions options);

    /**
     * Deletes the object named by {@code object}'s metadata.
     *
     * @param object names the object
     * @throws NotFoundException when it is already gone; see {@link #ignoreNotFound}
     */
    default void delete(Object object) {
        delete(object, DeleteOptions.none());
    }

    /**
     * {@link #delete(Object)} with propagation, grace period, preconditions or dry-run.
     *
     * @param object names the object
     * @param options the delete options
     */
    void delete(Object object, DeleteOptions options);

    /**
     * Deletes every object of {@code type} that matches {@code options} in one call (a collection
     * DELETE); {@link ListOption#inNamespace} is required for namespaced kinds.
     *
     * @param type the kind's Java type
     * @param options namespace, labels and fields
     * @throws IllegalArgumentException for a namespaced kind without a namespace
     */
    void deleteAllOf(Class<?> type, ListOption... options);

    /**
     * {@link #deleteAllOf(Class, ListOption...)} for a kind named by group, version and kind.
     *
     * @param kind the kind
     * @param options namespace, labels and fields
     */
    void deleteAllOf(GroupVersionKind kind, ListOption... options);

    /**
     * Reads the {@code scale} subresource of the object named by {@code object}'s metadata, from the
     * API server.
     *
     * @param object names the object: a Deployment, ReplicaSet, StatefulSet or a custom resource
     *     with a scale subresource
     * @return its scale
     */
    Scale getScale(Object object);

    /**
     * Sets the replicas of the object named by {@code object}'s metadata through its {@code scale}
     * subresource, as {@code kubectl scale} does.
     *
     * @param object names the object
     * @param replicas the desired replicas, zero or more
     * @return the scale after the change
     */
    Scale scale(Object object, int replicas);

    /**
     * Writes to the {@code status} subresource: controller-runtime's {@code client.Status()}.
     *
     * @return the status writer of this client
     */
    StatusWriter status();

    /**
     * Runs {@code action}, treating a {@link NotFoundException} as success: controller-runtime's
     * {@code client.IgnoreNotFound}.
     *
     * {@snippet :
     * Client.ignoreNotFound(() -> client.delete(staleService));
     * }
     *
     * @param action a call that may find its object gone
     */
    static void ignoreNotFound(Runnable action) {
        try {
            action.run();
        } catch (NotFoundException gone) {
            // already gone: what the caller wanted
        }
    }
}
