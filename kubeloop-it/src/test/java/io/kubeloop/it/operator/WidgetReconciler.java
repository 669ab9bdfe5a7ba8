package io.kubeloop.it.operator;

import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.rbac.Permission;
import java.util.Objects;
import java.util.Optional;

/**
 * Copies a Widget's message into its status with the name of the replica that did it, so a test sees which
 * replica reconciles. Writes the status only when it changed.
 *
 * <p>Thread-safe (stateless).
 */
@Permission(groups = "widgets.example.com", resources = "widgets/status", verbs = "update")
public final class WidgetReconciler implements Reconciler {

    private final String replica;

    /** @param replica the name this replica writes into the status */
    public WidgetReconciler(String replica) {
        this.replica = Objects.requireNonNull(replica, "replica");
    }

    @Override
    public Result reconcile(Request request, ReconcileContext context) {
        Optional<Widget> found = context.client().getOptional(Widget.class, request.key());
        if (found.isEmpty()) {
            return Result.done();
        }
        Widget widget = found.get();
        String message = widget.spec() == null ? "" : widget.spec().message();
        Widget.Status wanted = new Widget.Status(message, replica);
        if (!wanted.equals(widget.status())) {
            context.client().status().update(widget.withStatus(wanted));
        }
        return Result.done();
    }
}
