package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.Scheme;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.TerminalException;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.events.EventType;
import io.kubeloop.controller.rbac.Permission;
import io.kubeloop.controller.util.OwnerReferences;
import io.kubeloop.models.apps.v1.Deployment;
import java.util.Map;
import java.util.Optional;

/**
 * The sample-controller's reconcile, as Go's {@code syncHandler}: every Foo owns one Deployment
 * named by {@code spec.deploymentName} running {@code spec.replicas} nginx Pods, and its
 * {@code status.availableReplicas} mirrors the Deployment's.
 *
 * <p>For a Foo it: does nothing if the Foo is gone (its Deployment is garbage-collected through the
 * owner reference); creates the Deployment when missing, with a controller owner reference to the
 * Foo; fails (and is retried with back-off) when a Deployment of that name exists but is not
 * controlled by this Foo — it never takes over someone else's object — and records an
 * {@code ErrResourceExists} warning Event on the Foo; scales the Deployment when its replicas differ
 * from the Foo's; and writes the Foo's status only when it changed (an absent status counts as zero
 * available replicas), so its own status write does not start another round. As Go's, it records a
 * {@code Synced} Event after every successful pass: the manager's recorder writes Events in the
 * background, and its correlator turns the repeats into count patches of one Event per Foo, so they
 * never hold up a reconcile.
 *
 * <p>Reads come from the manager's cache through the context's client, writes go to the API
 * server. A stale cache shows up as a conflict or an already-exists error, which is retried.
 *
 * <p>RBAC: the writes are declared here — Deployments created and updated (never deleted: the
 * garbage collector deletes them with their Foo), Foo status updated. Reading Foos and Deployments
 * ({@code get, list, watch}) follows from the controller watching them, {@code update} on
 * {@code foos/finalizers} (what clusters enforcing owner references require of the Deployment's controller
 * reference, which blocks the Foo's deletion) from its owning Deployments, and writing Events
 * ({@code create, patch}) from the manager's recorder, so none is declared again. It never adopts a
 * Deployment it did not create, which would need {@code delete} on Deployments there.
 *
 * <p><b>Thread safety:</b> stateless; safe for several workers.
 */
@Permission(
        groups = "apps",
        resources = "deployments",
        verbs = {"create", "update"})
@Permission(groups = "samplecontroller.k8s.io", resources = "foos/status", verbs = "update")
public final class FooReconciler implements Reconciler {

    /** Maps Foo (a {@code @Kind} record) to its apiVersion and kind for owner references. */
    private static final Scheme SCHEME = Scheme.defaults();

    @Override
    public Result reconcile(Request request, ReconcileContext context) {
        Client client = context.client();
        Optional<Foo> found = client.getOptional(Foo.class, request.key());
        if (found.isEmpty()) {
            return Result.done(); // deleted; the garbage collector removes its Deployment
        }
        Foo foo = found.get();
        String deploymentName = foo.spec() == null ? null : foo.spec().deploymentName();
        if (deploymentName == null || deploymentName.isBlank()) {
            throw new TerminalException("Foo " + request + ": spec.deploymentName must be specified");
        }
        Deployment deployment = client.getOptional(Deployment.class, ObjectKey.of(request.namespace(), deploymentName))
                .orElse(null);
        if (deployment == null) {
            deployment = client.create(newDeployment(foo));
        }
        if (!OwnerReferences.isControlledBy(deployment, foo)) {
            String message = "Resource \"" + deploymentName + "\" already exists and is not managed by Foo";
            context.events().event(foo, EventType.WARNING, "ErrResourceExists", message);
            throw new IllegalStateException(message + " " + request);
        }
        Integer wanted = foo.spec().replicas();
        if (wanted != null && !wanted.equals(deployment.spec().replicas())) {
            // the cache hands out its own immutable instance: the change is a new record
            deployment = client.update(deployment.withSpec(deployment.spec().withReplicas(wanted)));
        }
        int available = deployment.status() == null || deployment.status().availableReplicas() == null
                ? 0
                : deployment.status().availableReplicas();
        if (available != availableReplicas(foo)) {
            client.status().update(foo.withStatus(new Foo.Status(available)));
        }
        context.events().event(foo, EventType.NORMAL, "Synced", "Foo synced successfully");
        return Result.done();
    }

    /** The Foo's {@code status.availableReplicas}, zero when unset. */
    private static int availableReplicas(Foo foo) {
        return foo.status() == null || foo.status().availableReplicas() == null
                ? 0
                : foo.status().availableReplicas();
    }

    /** The Deployment a Foo asks for: nginx Pods labelled for this Foo, controlled by it. */
    static Deployment newDeployment(Foo foo) {
        Map<String, String> labels =
                Map.of("app", "nginx", "controller", foo.metadata().name());
        Deployment deployment = Deployment.builder()
                .metadata(m -> m.name(foo.spec().deploymentName())
                        .namespace(foo.metadata().namespace()))
                .spec(s -> s.replicas(
                                foo.spec().replicas() == null ? 1 : foo.spec().replicas())
                        .selector(l -> l.matchLabels(labels))
                        .template(t -> t.metadata(m -> m.labels(labels))
                                .spec(p -> p.addContainer(c -> c.name("nginx").image("nginx:latest")))))
                .build();
        return OwnerReferences.setControllerReference(foo, deployment, SCHEME);
    }
}
