package io.kubeloop.client;

/** {@code resourceVersionMatch}: how a list interprets its {@code resourceVersion}. Needs a resourceVersion. */
public enum ResourceVersionMatch {
    /** Data at least as new as the resourceVersion. */
    NOT_OLDER_THAN("NotOlderThan"),
    /** Data at exactly the resourceVersion (410 when it has been compacted). */
    EXACT("Exact");

    private final String value;

    ResourceVersionMatch(String value) {
        this.value = value;
    }

    /** The parameter value, e.g. {@code NotOlderThan}. */
    public String value() {
        return value;
    }
}
