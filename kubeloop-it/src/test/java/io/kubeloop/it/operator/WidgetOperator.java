package io.kubeloop.it.operator;

import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;

/**
 * A user-style operator: the Widget controller, added to a manager by {@link #addTo} (what the bundle's RBAC
 * generator calls).
 */
public final class WidgetOperator {

    /** The controller's name. */
    public static final String CONTROLLER = "widget-controller";

    private WidgetOperator() {}

    /**
     * Adds the Widget controller to {@code manager}; its status names this host ({@code HOSTNAME}, the pod's
     * name in a cluster).
     */
    public static Controller addTo(Manager manager) {
        String replica = System.getenv().getOrDefault("HOSTNAME", "local");
        return ControllerBuilder.forResource(Widget.class)
                .named(CONTROLLER)
                .build(manager, new WidgetReconciler(replica));
    }
}
