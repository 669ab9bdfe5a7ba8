package io.kubeloop.apiserver.internal.registry;

/** The kind of write a validator or patch applier is working for. Thread-safe (enum). */
public enum Operation {
    /** POST. */
    CREATE,
    /** PUT. */
    UPDATE,
    /** PATCH (including server-side apply). */
    PATCH
}
