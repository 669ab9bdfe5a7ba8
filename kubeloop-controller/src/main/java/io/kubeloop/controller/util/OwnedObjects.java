package io.kubeloop.controller.util;

import io.kubeloop.api.GroupVersionKind;

/**
 * The objects one owner controls, kept at their desired state in one call each: what the Java
 * Operator SDK's dependent resources and controller-runtime's {@code CreateOrUpdate} with
 * {@code SetControllerReference} do, as server-side apply that writes only when something differs.
 * A reconciler gets it from its context:
 *
 * {@snippet :
 * Deployment desired = new DeploymentBuilder()
 *         .withNewMetadata().withName(foo.metadata().name()).endMetadata()   // namespace: the owner's
 *         .withNewSpec() ... .endSpec()
 *         .build();
 * Applied<Deployment> applied = context.owned(foo).apply(desired);
 * if (applied.outcome() == Applied.Outcome.CREATED) {
 *     context.events().event(foo, EventType.NORMAL, "Created", "Created Deployment " + desired.getMetadata().getName());
 * }
 * }
 *
 * <p><b>What {@link #apply} does.</b> It gives the desired object the owner's namespace when it has
 * none and a controller reference to the owner (so the garbage collector deletes it with the owner),
 * then decides from the manager's cache — no API call — whether the server already holds the desired
 * state; only if not does it send a server-side apply, as the controller's field manager (its name)
 * with {@code force} (Kubernetes' advice for controllers: the fields it sets are its own). The
 * object's kind is watched for the owner from the first call on, as
 * {@link io.kubeloop.controller.ControllerBuilder#owns} would: a change to or the deletion of an
 * owned object reconciles its owner again, which applies it again.
 *
 * <p><b>How "already holds" is decided, so that no difference loops.</b> The Java Operator SDK's
 * most reported defect is a server-side-apply matcher that sees a difference the server will never
 * remove, and so reconciles for ever. Here three facts decide, none of which needs
 * {@code managedFields}:
 * <ol>
 *   <li>the object carries the annotation {@value #DESIRED_HASH_ANNOTATION} with the hash of the
 *       desired state last applied. A different hash means the desired state changed: apply. This
 *       also catches a field the desired state no longer sets (which server-side apply then
 *       removes), across restarts of the process;</li>
 *   <li>the cached object has every field the desired state sets, after the normalisations of the
 *       server's round trip (quantities such as {@code 1000m} and {@code 1}, an int-or-string written
 *       as {@code "80"} or {@code 80}, empty and absent values, list items matched by name, items the
 *       server added ignored). A field changed by someone else makes it differ: apply, and the change
 *       is undone;</li>
 *   <li>the controller remembers, per owned object, the hash of its last apply and the
 *       resourceVersion the server answered with. When the cached object is still at that version
 *       (or at the one the apply was based on, the cache not having caught up yet) and the desired
 *       state is the same, nothing is sent, whatever the comparison would say. So a difference the
 *       comparison sees but the server keeps (a field it drops or rewrites in a way not foreseen)
 *       costs one apply per change of the object by someone else, never a loop.</li>
 * </ol>
 * The memory is per controller and bounded (the least recently used entries are forgotten); after
 * a restart the first two facts decide alone.
 *
 * <p><b>Rules.</b> An object controlled by another owner is not taken over:
 * {@link AlreadyOwnedException}. An object of the same name without a controller is adopted. One
 * controller applies a given object: two controllers applying the same object with this helper
 * would overwrite each other's hash. The desired object's {@code status} is not sent. Its RBAC
 * needs are {@code get}, {@code list}, {@code watch}, {@code create} and {@code patch} on the kind
 * (and {@code delete} for {@link #delete}): declare the writes with
 * {@link io.kubeloop.controller.rbac.Permission @Permission}.
 *
 * <p><b>Thread safety:</b> an instance belongs to one reconcile; the controller's memory behind it is
 * thread-safe.
 *
 * @see io.kubeloop.controller.ReconcileContext#owned(Object)
 */
public interface OwnedObjects {

    /** The annotation that records the hash of the desired state last applied to an owned object. */
    String DESIRED_HASH_ANNOTATION = "kubeloop.io/desired-hash";

    /**
     * Makes the server's object what {@code desired} says, owned by this owner; writes nothing when
     * it already is.
     *
     * @param desired the desired state: a built-in model, a record or a
     *     {@link io.kubeloop.api.DynamicObject}, with a name; not changed
     * @param <T> its type
     * @return the object now, and whether an apply was sent
     * @throws AlreadyOwnedException when another owner controls the object
     * @throws IllegalArgumentException when the object has no name, lies in another namespace than
     *     a namespaced owner, or its type is not a kind of the scheme
     * @throws io.kubeloop.api.errors.ApiException as the server answers the apply
     */
    <T> Applied<T> apply(T desired);

    /**
     * Deletes the owned object of {@code type} named {@code name} in the owner's namespace, if the
     * cache holds one that this owner controls; sends nothing otherwise.
     *
     * @param type the object's Java type
     * @param name its name
     * @return whether a delete was sent
     */
    boolean delete(Class<?> type, String name);

    /**
     * {@link #delete(Class, String)} for a kind read as {@link io.kubeloop.api.DynamicObject}s.
     *
     * @param kind the object's group, version and kind
     * @param name its name
     * @return whether a delete was sent
     */
    boolean delete(GroupVersionKind kind, String name);
}
