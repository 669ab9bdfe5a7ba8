package io.kubeloop.it.operator;

import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.OperatorMain;

/**
 * A user-style operator: the Widget controller, added to a manager by {@link #addTo} (what the bundle's RBAC
 * generator calls), and the {@code main} its image runs, through kubeloop's entry point.
 */
public final class WidgetOperator {

    /** The operator's name: its bundle's, and its default Lease's. */
    public static final String NAME = "widget-operator";

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

    /** Runs the operator as its Deployment's container does. */
    public static void main(String[] args) {
        OperatorMain.run(NAME, args, WidgetOperator::addTo);
    }
}
