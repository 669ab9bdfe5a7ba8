package io.kubeloop.controller.events;

/** The two types of Kubernetes Event. */
public enum EventType {
    /** Something expected happened. */
    NORMAL("Normal"),
    /** Something may be wrong. */
    WARNING("Warning");

    private final String value;

    EventType(String value) {
        this.value = value;
    }

    /** The value of the Event's {@code type} field. */
    public String value() {
        return value;
    }
}
