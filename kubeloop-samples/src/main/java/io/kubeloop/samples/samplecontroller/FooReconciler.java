package io.kubeloop.samples.samplecontroller;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.cache.Lister;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.TerminalException;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.events.EventType;
import io.kubeloop.controller.util.OwnerReferences;
import java.util.Map;
import java.util.Objects;

/**
 * The sample-controller's reconcile, as Go's {@code syncHandler}: every Foo owns one Deployment
 * named by {@code spec.deploymentName} running {@code spec.replicas} nginx Pods, and its
 * {@code status.availableReplicas} mirrors the Deployment's.
 *
 * <p>For a Foo it: does nothing if the Foo is gone (its Deployment is garbage-collected through the
 * owner reference); creates the Deployment when missing, with a controller owner reference to the
 * Foo; fails (and is retried with back-off) when a Deployment of that name exists but is not
 * controlled by this Foo — it never takes over someone else's object; updates the Deployment's
 * replicas when they differ from the Foo's; and writes the Foo's status when it changed (only then,
 * so its own status write does not start another round). Like Go's, it records a {@code Synced}
 * Event on the Foo after each successful round and an {@code ErrResourceExists} warning when the
 * Deployment's name is taken.
 *
 * <p>Reads come from the informers' caches (listers), writes go to the API server. A stale cache
 * shows up as a conflict or an already-exists error, which is retried.
 *
 * <p><b>Thread safety:</b> stateless apart from its collaborators, which are thread-safe; safe for
 * several workers.
 */
public final class FooReconciler implements Reconciler {

    /** Maps Foo (a {@code @Kind} record) to its apiVersion and kind for owner references. */
    private static final Scheme SCHEME = Scheme.defaults();

    private final Lister<Foo> foos;
    private final Lister<Deployment> deployments;
    private final ResourceClient<Foo> fooClient;
    private final ResourceClient<Deployment> deploymentClient;
    private final EventRecorder events;

    /**
     * A reconciler reading through the listers and writing through the clients.
     *
     * @param foos the Foo cache
     * @param deployments the Deployment cache
     * @param fooClient Foos in any namespace
     * @param deploymentClient Deployments in any namespace
     * @param events where to record {@code Synced} and {@code ErrResourceExists} Events about Foos
     */
    public FooReconciler(
            Lister<Foo> foos,
            Lister<Deployment> deployments,
            ResourceClient<Foo> fooClient,
            ResourceClient<Deployment> deploymentClient,
            EventRecorder events) {
        this.foos = Objects.requireNonNull(foos, "foos");
        this.deployments = Objects.requireNonNull(deployments, "deployments");
        this.fooClient = Objects.requireNonNull(fooClient, "fooClient");
        this.deploymentClient = Objects.requireNonNull(deploymentClient, "deploymentClient");
        this.events = Objects.requireNonNull(events, "events");
    }

    @Override
    public Result reconcile(Request request) {
        Foo foo;
        try {
            foo = foos.namespace(request.namespace()).get(request.name());
        } catch (NotFoundException gone) {
            return Result.done(); // deleted; the garbage collector removes its Deployment
        }
        String deploymentName = foo.spec() == null ? null : foo.spec().deploymentName();
        if (deploymentName == null || deploymentName.isBlank()) {
            throw new TerminalException("Foo " + request + ": spec.deploymentName must be specified");
        }
        ResourceClient<Deployment> inNamespace = deploymentClient.inNamespace(request.namespace());
        Deployment deployment;
        try {
            deployment = deployments.namespace(request.namespace()).get(deploymentName);
        } catch (NotFoundException missing) {
            deployment = inNamespace.create(newDeployment(foo));
        }
        if (!isControlledBy(deployment, foo)) {
            String message = "Resource \"" + deploymentName + "\" already exists and is not managed by Foo";
            events.event(foo, EventType.WARNING, "ErrResourceExists", message);
            throw new IllegalStateException(message + " " + request);
        }
        Integer wanted = foo.spec().replicas();
        if (wanted != null && !wanted.equals(deployment.getSpec().getReplicas())) {
            deployment = inNamespace.update(new DeploymentBuilder(deployment)
                    .editSpec()
                    .withReplicas(wanted)
                    .endSpec()
                    .build());
        }
        int available = deployment.getStatus() == null || deployment.getStatus().getAvailableReplicas() == null
                ? 0
                : deployment.getStatus().getAvailableReplicas();
        Foo.Status status = new Foo.Status(available);
        if (!status.equals(foo.status())) {
            fooClient.inNamespace(request.namespace()).updateStatus(foo.withStatus(status), WriteOptions.none());
        }
        events.event(foo, EventType.NORMAL, "Synced", "Foo synced successfully");
        return Result.done();
    }

    /** Whether {@code deployment}'s controller owner reference points at {@code foo} (by uid). */
    static boolean isControlledBy(Deployment deployment, Foo foo) {
        return OwnerReferences.controllerOf(deployment)
                .filter(ref -> "Foo".equals(ref.kind())
                        && Objects.equals(ref.uid(), foo.metadata().uid()))
                .isPresent();
    }

    /** The Deployment a Foo asks for: nginx Pods labelled for this Foo, controlled by it. */
    static Deployment newDeployment(Foo foo) {
        Map<String, String> labels =
                Map.of("app", "nginx", "controller", foo.metadata().name());
        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata()
                .withName(foo.spec().deploymentName())
                .withNamespace(foo.metadata().namespace())
                .endMetadata()
                .withNewSpec()
                .withReplicas(foo.spec().replicas() == null ? 1 : foo.spec().replicas())
                .withNewSelector()
                .addToMatchLabels(labels)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx:latest")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        return OwnerReferences.setControllerReference(foo, deployment, SCHEME);
    }
}
