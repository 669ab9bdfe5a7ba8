package io.kubeloop.controller.util;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Owner references as controller-runtime's {@code controllerutil} sets them, for objects of any Java
 * type (fabric8 models, records, {@link DynamicObject}). The owner's apiVersion and kind come from
 * the {@link Scheme} (or, for a {@code DynamicObject}, from the object itself); its name and uid from
 * its metadata, so the owner must have been read from the server. The setters return a copy: the
 * object passed in is never changed.
 *
 * <p>Rules: a namespaced owner may own only objects of its own namespace, and no cluster-scoped
 * object; a reference to an owner that is already there (same group, kind and name) is replaced, not
 * added twice; an object has at most one controller reference.
 *
 * <p>Stateless; thread-safe.
 */
public final class OwnerReferences {

    private OwnerReferences() {}

    /**
     * The object's controller reference, if any (client-go's {@code metav1.GetControllerOf}).
     *
     * @param object any object
     * @return the reference with {@code controller: true}
     */
    public static Optional<OwnerReference> controllerOf(Object object) {
        return ObjectAccess.ownerReferences(object).stream()
                .filter(OwnerReference::isController)
                .findFirst();
    }

    /**
     * Whether {@code owner} controls {@code object}: the object's controller reference carries the owner's uid
     * (apimachinery's {@code metav1.IsControlledBy}). A uid names one object for all time, so an owner deleted
     * and created again under the same name does not control what the first one did.
     *
     * @param object the dependent
     * @param owner the possible controller, as read from the server (it has a uid)
     * @return true when the object's controller is that owner
     */
    public static boolean isControlledBy(Object object, Object owner) {
        String uid = ObjectAccess.uid(owner);
        return uid != null
                && controllerOf(object).filter(ref -> uid.equals(ref.uid())).isPresent();
    }

    /**
     * A copy of {@code object} controlled by {@code owner}: a reference with {@code controller} and
     * {@code blockOwnerDeletion} true, so the garbage collector deletes the object with its owner and
     * a foreground deletion of the owner waits for it (controller-runtime's
     * {@code SetControllerReference}).
     *
     * @param owner the controlling object, as read from the server (it has a uid)
     * @param object the dependent
     * @param scheme maps the owner's type to its kind
     * @param <T> the dependent's type
     * @return the dependent with the reference
     * @throws AlreadyOwnedException if another owner controls the object
     * @throws IllegalArgumentException if the namespaces do not allow the reference, the owner has no
     *     uid or name, or its type is not a kind of the scheme
     */
    public static <T> T setControllerReference(Object owner, T object, Scheme scheme) {
        OwnerReference ref = controllerReference(owner, scheme);
        Optional<OwnerReference> existing = controllerOf(object);
        if (existing.isPresent() && !sameOwner(existing.get(), ref)) {
            throw new AlreadyOwnedException(ObjectAccess.key(object), existing.get());
        }
        return upsert(owner, object, ref);
    }

    /**
     * A copy of {@code object} with a plain (non-controller) reference to {@code owner}: the garbage
     * collector deletes the object once all its owners are gone (controller-runtime's
     * {@code SetOwnerReference}).
     *
     * @param owner the owning object, as read from the server
     * @param object the dependent
     * @param scheme maps the owner's type to its kind
     * @param <T> the dependent's type
     * @return the dependent with the reference
     * @throws IllegalArgumentException as {@link #setControllerReference}
     */
    public static <T> T setOwnerReference(Object owner, T object, Scheme scheme) {
        return upsert(owner, object, ownerReference(owner, scheme));
    }

    /**
     * Whether {@code object} has a reference to {@code owner} (same group, kind and name).
     *
     * @param owner the owner
     * @param object the dependent
     * @param scheme maps the owner's type to its kind
     * @return true if referenced
     */
    public static boolean hasOwnerReference(Object owner, Object object, Scheme scheme) {
        OwnerReference ref = ownerReference(owner, scheme);
        return ObjectAccess.ownerReferences(object).stream().anyMatch(r -> sameOwner(r, ref));
    }

    /**
     * The plain reference to {@code owner} that {@link #setOwnerReference} sets: {@code controller}
     * and {@code blockOwnerDeletion} unset.
     *
     * @param owner the owner, as read from the server
     * @param scheme maps its type to its kind
     * @return the reference
     * @throws IllegalArgumentException if the owner has no uid or name, or its type is not a kind of
     *     the scheme
     */
    public static OwnerReference ownerReference(Object owner, Scheme scheme) {
        Identity id = identity(owner, scheme);
        return new OwnerReference(id.gvk().apiVersion(), id.gvk().kind(), id.name(), id.uid(), null, null);
    }

    /**
     * The controller reference to {@code owner} that {@link #setControllerReference} sets:
     * {@code controller} and {@code blockOwnerDeletion} true.
     *
     * @param owner the controlling object, as read from the server
     * @param scheme maps its type to its kind
     * @return the reference
     * @throws IllegalArgumentException as {@link #ownerReference}
     */
    public static OwnerReference controllerReference(Object owner, Scheme scheme) {
        Identity id = identity(owner, scheme);
        return new OwnerReference(id.gvk().apiVersion(), id.gvk().kind(), id.name(), id.uid(), true, true);
    }

    /** What a reference to an owner names. */
    private record Identity(GroupVersionKind gvk, String name, String uid) {}

    private static Identity identity(Object owner, Scheme scheme) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(scheme, "scheme");
        GroupVersionKind gvk;
        if (owner instanceof DynamicObject d) {
            gvk = GroupVersionKind.of(d.apiVersion(), d.kind());
        } else {
            gvk = scheme.gvkOf(owner.getClass())
                    .orElseThrow(
                            () -> new IllegalArgumentException(
                                    owner.getClass().getName()
                                            + " is not a Kubernetes kind of the scheme: register it in the Scheme or annotate it with @Kind"));
        }
        String name = ObjectAccess.name(owner);
        String uid = ObjectAccess.uid(owner);
        if (name == null || name.isEmpty() || uid == null || uid.isEmpty()) {
            throw new IllegalArgumentException("the owner " + gvk.kind() + " " + name
                    + " has no name or uid: use the object as read from the server");
        }
        return new Identity(gvk, name, uid);
    }

    private static <T> T upsert(Object owner, T object, OwnerReference ref) {
        validateNamespaces(owner, object);
        List<OwnerReference> refs = new ArrayList<>(ObjectAccess.ownerReferences(object));
        int same = -1;
        for (int i = 0; i < refs.size(); i++) {
            if (sameOwner(refs.get(i), ref)) {
                same = i;
                break;
            }
        }
        if (same >= 0) {
            refs.set(same, ref);
        } else {
            refs.add(ref);
        }
        return MetadataEdit.copyWith(object, metadata -> {
            ArrayNode array = metadata.putArray("ownerReferences");
            refs.forEach(r -> array.add(KubeJson.mapper().<JsonNode>valueToTree(r)));
        });
    }

    private static void validateNamespaces(Object owner, Object object) {
        String ownerNamespace = ObjectAccess.namespace(owner);
        if (ownerNamespace.isEmpty()) {
            return; // a cluster-scoped owner may own anything
        }
        String objectNamespace = ObjectAccess.namespace(object);
        if (objectNamespace.isEmpty()) {
            throw new IllegalArgumentException(
                    "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace "
                            + ownerNamespace);
        }
        if (!ownerNamespace.equals(objectNamespace)) {
            throw new IllegalArgumentException("cross-namespace owner references are disallowed, owner's namespace "
                    + ownerNamespace + ", obj's namespace " + objectNamespace);
        }
    }

    /** Same group (the version may differ), kind and name: controller-runtime's {@code referSameObject}. */
    private static boolean sameOwner(OwnerReference a, OwnerReference b) {
        return group(a.apiVersion()).equals(group(b.apiVersion()))
                && Objects.equals(a.kind(), b.kind())
                && Objects.equals(a.name(), b.name());
    }

    private static String group(String apiVersion) {
        return apiVersion == null || apiVersion.isEmpty()
                ? ""
                : GroupVersion.parse(apiVersion).group();
    }
}
