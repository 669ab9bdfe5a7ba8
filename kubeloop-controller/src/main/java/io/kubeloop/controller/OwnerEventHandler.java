package io.kubeloop.controller;

import io.kubeloop.api.GroupKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * {@link EventHandler#forOwner} and {@link EventHandler#forEveryOwner}: maps an object to the
 * requests of its owners of one group and kind. An owner reference's group is the part of its
 * {@code apiVersion} before the slash (none for the core group); its version is ignored, as any
 * version names the same owner.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the object type
 */
final class OwnerEventHandler<T> implements EventHandler<T> {

    /** Which owner references of the kind count. */
    enum Owners {
        /** The one marked {@code controller: true}. */
        CONTROLLER,
        /** All of them. */
        EVERY
    }

    private final GroupKind ownerKind;
    private final boolean ownerNamespaced;
    private final boolean onlyController;

    OwnerEventHandler(GroupKind ownerKind, ResourceScope ownerScope, Owners owners) {
        this.ownerKind = Objects.requireNonNull(ownerKind, "ownerKind");
        this.ownerNamespaced = Objects.requireNonNull(ownerScope, "ownerScope").isNamespaced();
        this.onlyController = Objects.requireNonNull(owners, "owners") == Owners.CONTROLLER;
    }

    @Override
    public void handle(Event<T> event, RateLimitingQueue<Request> queue) {
        Set<Request> requests = new LinkedHashSet<>();
        switch (event) {
            case Event.Create<T> c -> owners(c.object(), requests);
            case Event.Update<T> u -> {
                owners(u.oldObject(), requests);
                owners(u.newObject(), requests);
            }
            case Event.Delete<T> d -> owners(d.object(), requests);
            case Event.Generic<T> g -> owners(g.object(), requests);
        }
        requests.forEach(queue::add);
    }

    private void owners(T object, Set<Request> into) {
        for (OwnerReference ref : ObjectAccess.ownerReferences(object)) {
            if (onlyController && !ref.isController()) {
                continue;
            }
            if (!ownerKind.kind().equals(ref.kind()) || !ownerKind.group().equals(group(ref.apiVersion()))) {
                continue;
            }
            String namespace = ownerNamespaced ? ObjectAccess.namespace(object) : "";
            into.add(new Request(new ObjectKey(namespace, ref.name())));
        }
    }

    private static String group(String apiVersion) {
        if (apiVersion == null) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    @Override
    public String toString() {
        return (onlyController ? "EventHandler.forOwner(" : "EventHandler.forEveryOwner(") + ownerKind + ")";
    }
}
