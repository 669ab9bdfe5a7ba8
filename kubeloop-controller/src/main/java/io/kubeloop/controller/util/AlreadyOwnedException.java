package io.kubeloop.controller.util;

import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.OwnerReference;
import java.util.Objects;

/**
 * Another controller already controls the object: an object has at most one owner reference with
 * {@code controller: true} (controller-runtime's {@code AlreadyOwnedError}).
 */
public final class AlreadyOwnedException extends IllegalStateException {

    private final ObjectKey object;
    private final OwnerReference owner;

    /**
     * @param object the object's key
     * @param owner its existing controller reference
     */
    public AlreadyOwnedException(ObjectKey object, OwnerReference owner) {
        super("Object " + object + " is already owned by another " + owner.kind() + " controller " + owner.name());
        this.object = Objects.requireNonNull(object, "object");
        this.owner = owner;
    }

    /** The object that is already controlled. */
    public ObjectKey object() {
        return object;
    }

    /** Its existing controller reference. */
    public OwnerReference owner() {
        return owner;
    }
}
