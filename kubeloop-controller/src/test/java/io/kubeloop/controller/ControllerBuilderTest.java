package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.client.KubeClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the builder checks and derives without a server (the informers are never started; the whole
 * builder against a server is exercised by the sample-controller's integration test).
 */
class ControllerBuilderTest {

    @Kind(group = "samplecontroller.k8s.io", version = "v1alpha1")
    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    private final KubeClient client = UnreachableClient.create();
    private final InformerFactory informers = InformerFactory.create(client, InformerOptions.defaults());

    @AfterEach
    void close() {
        informers.close();
        client.close();
    }

    @Test
    void theNameDefaultsToTheReconciledKindInLowerCase() {
        assertThat(ControllerBuilder.forResource(Foo.class).name()).isEqualTo("foo");
        assertThat(ControllerBuilder.forResource(Deployment.class).name()).isEqualTo("deployment");
        assertThat(ControllerBuilder.forResource(Foo.class).named("foos-v2").name())
                .isEqualTo("foos-v2");
    }

    @Test
    void aCleanupNeedsAQualifiedFinalizerOnceAndAManager() {
        Cleaner<Foo> cleaner = (foo, context) -> Result.done();
        assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class).withCleanup("cleanup", cleaner))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("finalizer \"cleanup\" must be a qualified name with a domain prefix, such as"
                        + " example.com/cleanup");
        assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class)
                        .withCleanup("example.com/one", cleaner)
                        .withCleanup("example.com/two", cleaner))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the cleanup is set already, with finalizer example.com/one");
        assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class)
                        .withCleanup("example.com/cleanup", cleaner)
                        .build(informers, (request, context) -> Result.done()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("withCleanup needs a manager's client: build(manager, reconciler)");
    }

    @Test
    void aTypeThatIsNoKindOfTheSchemeIsRejectedWithAHint() {
        assertThatThrownBy(
                        () -> ControllerBuilder.forResource(String.class).build(informers, (r, ctx) -> Result.done()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("java.lang.String is not a Kubernetes kind of the scheme: register it in the Scheme or "
                        + "annotate it with @Kind");
        assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class)
                        .owns(StringBuilder.class)
                        .build(informers, (r, ctx) -> Result.done()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("java.lang.StringBuilder is not");
    }

    @Test
    void buildRegistersAWatchPerTypeOnTheSharedInformersAndAppliesTheOptions() {
        Controller controller = ControllerBuilder.forResource(Foo.class)
                .owns(Deployment.class)
                .watches(ConfigMap.class, EventHandler.fromMapFunction(cm -> List.of()), e -> true)
                .withOptions(o -> o.maxConcurrentReconciles(3))
                .withOptions(o -> o.cacheSyncTimeout(Duration.ofMillis(100))) // calls add up
                .build(informers, (r, ctx) -> Result.done());

        assertThat(controller.name()).isEqualTo("foo");
        assertThat(controller.toString()).contains("workers=3");
        // three informers, none started: start gives up naming each of them
        assertThatThrownBy(controller::start)
                .isInstanceOf(CacheSyncTimeoutException.class)
                .hasMessageContaining("foos")
                .hasMessageContaining("deployments")
                .hasMessageContaining("configmaps");
    }

    @Test
    void aControllerOnAShutDownFactoryFailsAtOnceInsteadOfWaitingOutTheCacheSyncTimeout() {
        informers.shutdown();
        long start = System.nanoTime();
        assertThatThrownBy(() -> ControllerBuilder.forResource(Foo.class)
                        .owns(Deployment.class)
                        .withOptions(o -> o.cacheSyncTimeout(Duration.ofSeconds(30)))
                        .build(informers, (r, ctx) -> Result.done())
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down")
                .hasMessageContaining(Foo.class.getName());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
}
