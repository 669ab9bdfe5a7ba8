package io.kubeloop.bench.race;

import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The sample-controller's reconcile for kubernetes-client/java's controller builder, after Go's
 * {@code syncHandler}: reads the Foo and its Deployment from the informers' listers; creates the
 * Deployment (with a controller owner reference to the Foo) when missing; requeues when a Deployment
 * of that name is not controlled by the Foo; when the replicas differ, updates the Deployment with
 * the one the Foo asks for (as Go's sample does: an update of a fresh object); and replaces the Foo's
 * status (PUT on {@code /status}, Go's {@code UpdateStatus}) when its available replicas differ from
 * the Deployment's (an absent status counts as zero). A failed write requeues the Foo with the work
 * queue's rate limiting.
 *
 * <p><b>Thread safety.</b> Stateless; the controller's workers call it concurrently, never twice at
 * once for one Foo.
 */
final class JavaClientFooReconciler implements Reconciler {

    private final Lister<JavaClientFoo> foos;
    private final Lister<V1Deployment> deployments;
    private final GenericKubernetesApi<V1Deployment, ?> deploymentApi;
    private final CustomObjectsApi customObjects;

    JavaClientFooReconciler(
            Lister<JavaClientFoo> foos,
            Lister<V1Deployment> deployments,
            GenericKubernetesApi<V1Deployment, ?> deploymentApi,
            CustomObjectsApi customObjects) {
        this.foos = foos;
        this.deployments = deployments;
        this.deploymentApi = deploymentApi;
        this.customObjects = customObjects;
    }

    @Override
    public Result reconcile(Request request) {
        JavaClientFoo foo = foos.namespace(request.getNamespace()).get(request.getName());
        if (foo == null) {
            return new Result(false); // deleted; the garbage collector removes its Deployment
        }
        String deploymentName = foo.spec() == null ? null : foo.spec().deploymentName();
        if (deploymentName == null || deploymentName.isBlank()) {
            return new Result(false); // Go's sample reports it and drops the key
        }
        try {
            V1Deployment deployment =
                    deployments.namespace(request.getNamespace()).get(deploymentName);
            if (deployment == null) {
                deployment = deploymentApi
                        .create(newDeployment(foo))
                        .throwsApiException()
                        .getObject();
            }
            if (!isControlledBy(deployment, foo)) {
                return new Result(true);
            }
            Integer wanted = foo.spec().replicas();
            if (wanted != null && !wanted.equals(deployment.getSpec().getReplicas())) {
                deployment = deploymentApi
                        .update(newDeployment(foo))
                        .throwsApiException()
                        .getObject();
            }
            int available =
                    deployment.getStatus() == null || deployment.getStatus().getAvailableReplicas() == null
                            ? 0
                            : deployment.getStatus().getAvailableReplicas();
            int recorded = foo.status() == null || foo.status().availableReplicas() == null
                    ? 0
                    : foo.status().availableReplicas();
            if (available != recorded) {
                customObjects
                        .replaceNamespacedCustomObjectStatus(
                                JavaClientFoo.GROUP,
                                JavaClientFoo.VERSION,
                                request.getNamespace(),
                                JavaClientFoo.PLURAL,
                                request.getName(),
                                foo.withStatus(new JavaClientFoo.Status(available)))
                        .execute();
            }
            return new Result(false);
        } catch (ApiException e) {
            return new Result(true); // conflict or already exists with a stale cache: again, with back-off
        }
    }

    private static boolean isControlledBy(V1Deployment deployment, JavaClientFoo foo) {
        List<V1OwnerReference> refs = deployment.getMetadata().getOwnerReferences();
        return refs != null
                && refs.stream()
                        .anyMatch(r -> Boolean.TRUE.equals(r.getController())
                                && "Foo".equals(r.getKind())
                                && Objects.equals(r.getUid(), foo.getMetadata().getUid()));
    }

    /** The Deployment a Foo asks for: nginx Pods labelled for this Foo, controlled by it. */
    static V1Deployment newDeployment(JavaClientFoo foo) {
        Map<String, String> labels =
                Map.of("app", "nginx", "controller", foo.getMetadata().getName());
        Integer replicas = foo.spec().replicas();
        return new V1Deployment()
                .apiVersion("apps/v1")
                .kind("Deployment")
                .metadata(new V1ObjectMeta()
                        .name(foo.spec().deploymentName())
                        .namespace(foo.getMetadata().getNamespace())
                        .addOwnerReferencesItem(new V1OwnerReference()
                                .apiVersion(JavaClientFoo.GROUP + "/" + JavaClientFoo.VERSION)
                                .kind("Foo")
                                .name(foo.getMetadata().getName())
                                .uid(foo.getMetadata().getUid())
                                .controller(true)
                                .blockOwnerDeletion(true)))
                .spec(new V1DeploymentSpec()
                        .replicas(replicas == null ? 1 : replicas)
                        .selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec()
                                .metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec()
                                        .addContainersItem(
                                                new V1Container().name("nginx").image("nginx:latest")))));
    }
}
