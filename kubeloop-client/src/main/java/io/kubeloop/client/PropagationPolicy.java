package io.kubeloop.client;

/** {@code DeleteOptions.propagationPolicy}: what happens to dependents of a deleted object. */
public enum PropagationPolicy {
    /** Dependents keep running; their owner references are removed. */
    ORPHAN("Orphan"),
    /** The owner goes at once; the garbage collector deletes dependents afterwards (kubectl's default). */
    BACKGROUND("Background"),
    /** Dependents are deleted first; the owner stays, with a finalizer, until they are gone. */
    FOREGROUND("Foreground");

    private final String value;

    PropagationPolicy(String value) {
        this.value = value;
    }

    /** The wire value, e.g. {@code Background}. */
    public String value() {
        return value;
    }
}
