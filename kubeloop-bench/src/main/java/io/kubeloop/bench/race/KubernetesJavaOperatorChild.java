package io.kubeloop.bench.race;

import io.kubeloop.peers.race.RaceReporter;
import io.kubeloop.peers.race.RequestTally;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentList;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Contender "k8s-java" of the race: the sample-controller on kubernetes-client/java's controller
 * builder with its defaults ({@code ControllerBuilder.defaultBuilder}: 16 workers, the default
 * rate-limiting work queue), over a {@code SharedInformerFactory} with one informer of
 * {@link JavaClientFoo}s and one of {@code V1Deployment}s in all namespaces (no resync). A Foo's changes
 * enqueue it; a Deployment's enqueue the Foo that controls it. The client is the kubeconfig's
 * ({@code ClientBuilder.kubeconfig}) with the read timeout off, as the client's informer examples set
 * it for watches, plus an OkHttp interceptor that counts the requests. Reconciler:
 * {@link JavaClientFooReconciler}. Protocol: {@link RaceReporter}.
 */
public final class KubernetesJavaOperatorChild {

    private KubernetesJavaOperatorChild() {}

    public static void main(String[] args) {
        RequestTally tally = new RequestTally();
        RaceReporter reporter = new RaceReporter(tally);
        Runnable stop;
        try {
            stop = start(Path.of(args[0]), tally);
        } catch (IOException | RuntimeException | LinkageError e) {
            reporter.fail(e);
            return;
        }
        reporter.ready();
        reporter.serveUntilStdinCloses(stop);
    }

    /** Starts the informers and the controller, waits for the informers' sync; returns what stops them. */
    private static Runnable start(Path kubeconfig, RequestTally tally) throws IOException {
        ApiClient client;
        try (Reader in = Files.newBufferedReader(kubeconfig)) {
            client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(in))
                    .setReadTimeout(Duration.ZERO)
                    .build();
        }
        client.setHttpClient(client.getHttpClient()
                .newBuilder()
                .addInterceptor(chain -> {
                    String query = chain.request().url().encodedQuery();
                    tally.record(
                            chain.request().method(),
                            chain.request().url().encodedPath() + (query == null ? "" : "?" + query));
                    return chain.proceed(chain.request());
                })
                .build());
        GenericKubernetesApi<JavaClientFoo, JavaClientFooList> fooApi = new GenericKubernetesApi<>(
                JavaClientFoo.class,
                JavaClientFooList.class,
                JavaClientFoo.GROUP,
                JavaClientFoo.VERSION,
                JavaClientFoo.PLURAL,
                client);
        GenericKubernetesApi<V1Deployment, V1DeploymentList> deploymentApi = new GenericKubernetesApi<>(
                V1Deployment.class, V1DeploymentList.class, "apps", "v1", "deployments", client);
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<JavaClientFoo> fooInformer = factory.sharedIndexInformerFor(fooApi, JavaClientFoo.class, 0);
        SharedIndexInformer<V1Deployment> deploymentInformer =
                factory.sharedIndexInformerFor(deploymentApi, V1Deployment.class, 0);
        JavaClientFooReconciler reconciler = new JavaClientFooReconciler(
                new Lister<>(fooInformer.getIndexer()),
                new Lister<>(deploymentInformer.getIndexer()),
                deploymentApi,
                new CustomObjectsApi(client));
        Controller controller = ControllerBuilder.defaultBuilder(factory)
                .watch(queue -> ControllerBuilder.controllerWatchBuilder(JavaClientFoo.class, queue)
                        .build())
                .watch(queue -> ControllerBuilder.controllerWatchBuilder(V1Deployment.class, queue)
                        .withWorkQueueKeyFunc(KubernetesJavaOperatorChild::controllingFoo)
                        .build())
                .withName("foo-controller")
                .withReadyFunc(fooInformer::hasSynced)
                .withReadyFunc(deploymentInformer::hasSynced)
                .withReconciler(reconciler)
                .build();
        factory.startAllRegisteredInformers();
        Thread.ofPlatform().name("foo-controller").start(controller::run);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!fooInformer.hasSynced() || !deploymentInformer.hasSynced()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("informers not synced within 2 minutes");
            }
            sleep(Duration.ofMillis(1));
        }
        return () -> {
            controller.shutdown();
            factory.stopAllRegisteredInformers();
        };
    }

    /** The Foo controlling {@code deployment} as a work-queue key, or null (not enqueued). */
    private static Request controllingFoo(V1Deployment deployment) {
        if (deployment.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        for (V1OwnerReference ref : deployment.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(ref.getController()) && "Foo".equals(ref.getKind())) {
                return new Request(deployment.getMetadata().getNamespace(), ref.getName());
            }
        }
        return null;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
