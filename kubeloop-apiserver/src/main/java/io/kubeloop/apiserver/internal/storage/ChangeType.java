package io.kubeloop.apiserver.internal.storage;

/** The kinds of change a watch reports; the names are the wire names. Thread-safe (enum). */
public enum ChangeType {
    /** An object was created, or entered a watcher's selection. */
    ADDED,
    /** An object changed and stays in the selection. */
    MODIFIED,
    /** An object was deleted, or left a watcher's selection. */
    DELETED
}
