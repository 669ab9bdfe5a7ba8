package io.kubeloop.peers.race;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * The sample-controller's reconciler in the Java Operator SDK, written as its documentation and its
 * Tomcat sample write one: the Deployment is a managed dependent ({@link FooDeploymentDependent}) that
 * the workflow creates or updates before {@link #reconcile} runs; the reconciler reads it from the
 * dependent's cache and patches the Foo's status (server-side apply of a Foo holding only its name,
 * namespace and status, the JOSDK's default for {@code patchStatus}) when the Deployment's available
 * replicas differ from {@code status.availableReplicas} (an absent status counts as zero).
 *
 * <p>Everything else is the JOSDK's default configuration: generation-aware event processing, its
 * retry and (inactive) rate limiter, no finalizer (the reconciler cleans nothing up; the garbage
 * collector deletes the Deployment with its Foo).
 *
 * <p><b>Thread safety.</b> Stateless; the JOSDK calls it from several threads, never twice at once for
 * one Foo.
 */
@Workflow(dependents = @Dependent(type = FooDeploymentDependent.class))
@ControllerConfiguration(name = "foo-controller")
public final class JosdkFooReconciler implements Reconciler<Foo> {

    @Override
    public UpdateControl<Foo> reconcile(Foo foo, Context<Foo> context) {
        int available = context.getSecondaryResource(Deployment.class)
                .map(d -> d.getStatus() == null || d.getStatus().getAvailableReplicas() == null
                        ? 0
                        : d.getStatus().getAvailableReplicas())
                .orElse(0);
        int recorded = foo.getStatus() == null || foo.getStatus().availableReplicas() == null
                ? 0
                : foo.getStatus().availableReplicas();
        if (available == recorded) {
            return UpdateControl.noUpdate();
        }
        Foo patch = new Foo();
        patch.setMetadata(new ObjectMetaBuilder()
                .withName(foo.getMetadata().getName())
                .withNamespace(foo.getMetadata().getNamespace())
                .build());
        patch.setStatus(new Foo.Status(available));
        return UpdateControl.patchStatus(patch);
    }
}
