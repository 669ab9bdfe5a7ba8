package io.kubeloop.controller;

import io.kubeloop.api.ObjectKey;
import java.util.Objects;

/**
 * What a {@link Reconciler} is asked to reconcile: the key of one object, nothing more. Requests
 * are level-based — they carry no event type and no object, so a reconciler reads the current
 * state (usually from a cache) and makes the world match it, whatever happened before. Many
 * events for one object between two reconciles collapse into one request in the work queue.
 *
 * <p>Immutable and thread-safe; equal keys make equal requests, so a request is a work-queue item.
 *
 * @param key the object's namespace and name
 * @see <a href="https://github.com/kubernetes-sigs/controller-runtime/blob/main/pkg/reconcile/reconcile.go">controller-runtime reconcile.Request</a>
 */
public record Request(ObjectKey key) {

    public Request {
        Objects.requireNonNull(key, "key");
    }

    /**
     * A request for a namespaced object, or a cluster-scoped one when {@code namespace} is null or
     * empty.
     *
     * @param namespace the namespace, or null/empty for a cluster-scoped object
     * @param name the name; not empty
     * @return the request
     */
    public static Request of(String namespace, String name) {
        return new Request(ObjectKey.of(namespace, name));
    }

    /** The namespace, {@code ""} for a cluster-scoped object. */
    public String namespace() {
        return key.namespace();
    }

    /** The name. */
    public String name() {
        return key.name();
    }

    /** {@code namespace/name}, or the bare name of a cluster-scoped object. */
    @Override
    public String toString() {
        return key.toString();
    }
}
