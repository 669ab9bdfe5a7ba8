package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.OwnerReference;
import java.util.Objects;

/**
 * Where an object is, as the garbage collector knows it: type, namespace, name and uid (the real GC's
 * {@code objectReference}). For an owner only known from a dependent's reference (a virtual node), the
 * namespace is the dependent's, which is where a namespaced owner must live.
 *
 * <p>Immutable; thread-safe.
 *
 * @param apiVersion e.g. {@code apps/v1}
 * @param kind e.g. {@code ReplicaSet}
 * @param namespace the namespace, {@code ""} for cluster-scoped objects
 * @param name the name
 * @param uid the uid
 */
record ObjectIdentity(String apiVersion, String kind, String namespace, String name, String uid) {

    public ObjectIdentity {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
    }

    /** The identity of an observed object. */
    static ObjectIdentity of(ObjectMetadata o) {
        return new ObjectIdentity(
                o.apiVersion(), o.kind(), o.metadata().namespace(), o.metadata().name(), o.uid());
    }

    /** The identity {@code ref} names, assumed in {@code namespace}. */
    static ObjectIdentity of(OwnerReference ref, String namespace) {
        return new ObjectIdentity(nn(ref.apiVersion()), nn(ref.kind()), namespace, nn(ref.name()), nn(ref.uid()));
    }

    /** The API group of {@link #apiVersion}. */
    String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    private static String nn(String s) {
        return s == null ? "" : s;
    }

    @Override
    public String toString() {
        return "[" + apiVersion + "/" + kind + ", namespace: " + namespace + ", name: " + name + ", uid: " + uid + "]";
    }
}
