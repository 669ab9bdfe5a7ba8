package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.Request;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sample-controller against kubeloop's embedded API server over HTTPS: informers, controller,
 * reconciler and client together, with the server's garbage collector.
 */
@Timeout(120)
class SampleControllerIntegrationTest extends EmbeddedServerTestBase {

    private static final String NS = "samples";

    private SampleController sample;
    private ResourceClient<Foo> foos;
    private ResourceClient<Deployment> deployments;

    @BeforeEach
    void startSampleController() {
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, NS)), WriteOptions.none());
        FooCrd.install(client, Duration.ofSeconds(30));
        sample = new SampleController(client);
        sample.start();
        foos = client.resource(Foo.class).inNamespace(NS);
        deployments = client.resource(Deployment.class).inNamespace(NS);
    }

    @AfterEach
    void stopSampleController() {
        if (sample != null) {
            sample.close();
        }
    }

    private Deployment awaitDeployment(String name, Predicate<Deployment> condition) {
        Deployment[] seen = new Deployment[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    try {
                        seen[0] = deployments.get(name);
                        return condition.test(seen[0]);
                    } catch (NotFoundException e) {
                        return false;
                    }
                });
        return seen[0];
    }

    @Test
    void aFooGetsItsDeploymentWhichFollowsTheFooAndReportsBackAndGoesWithIt() {
        Foo foo = foos.create(Foo.of(NS, "example-foo", "example-deploy", 1));

        Deployment created = awaitDeployment("example-deploy", d -> true);
        assertThat(created.getSpec().getReplicas()).isEqualTo(1);
        assertThat(created.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getKind()).isEqualTo("Foo");
            assertThat(ref.getUid()).isEqualTo(foo.metadata().uid());
            assertThat(ref.getController()).isTrue();
        });

        // a merge patch, as kubectl would send: a get-then-update raced the controller's own status
        // writes (409 Conflict) now and then
        foos.patch("example-foo", PatchType.MERGE, "{\"spec\":{\"replicas\":3}}");
        awaitDeployment("example-deploy", d -> d.getSpec().getReplicas() == 3);

        deployments.patchStatus(
                "example-deploy", PatchType.MERGE, "{\"status\":{\"availableReplicas\":3}}", PatchOptions.none());
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    Foo f = foos.get("example-foo");
                    return f.status() != null
                            && Integer.valueOf(3).equals(f.status().availableReplicas());
                });

        ResourceClient<DynamicObject> events = client.resource(
                        new GroupVersionResource("", "v1", "events"), ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(NS);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> events.list().items().stream()
                        .anyMatch(e -> "Synced".equals(e.node().path("reason").asString())
                                && "example-foo"
                                        .equals(e.node()
                                                .path("involvedObject")
                                                .path("name")
                                                .asString())
                                && "Foo synced successfully"
                                        .equals(e.node().path("message").asString())));
        // a Synced Event after every successful pass, as Go's: the repeats are one Event whose count grows
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    List<DynamicObject> synced = events.list().items().stream()
                            .filter(e -> "Synced".equals(e.node().path("reason").asString())
                                    && "example-foo"
                                            .equals(e.node()
                                                    .path("involvedObject")
                                                    .path("name")
                                                    .asString()))
                            .toList();
                    return synced.size() == 1
                            && synced.get(0).node().path("count").asInt() >= 2;
                });

        foos.delete("example-foo");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    try {
                        deployments.get("example-deploy");
                        return false;
                    } catch (NotFoundException gone) {
                        return true;
                    }
                });
        assertThat(sample.controller().failure()).isEmpty();
    }

    @Test
    void aFooNeverTakesOverADeploymentItDoesNotControlAndKeepsRetrying() {
        deployments.create(new DeploymentBuilder()
                .withNewMetadata()
                .withName("taken")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewSelector()
                .addToMatchLabels("app", "other")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "other")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build());

        foos.create(Foo.of(NS, "thief", "taken", 5));

        Request thief = Request.of(NS, "thief");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> sample.controller().queue().numRequeues(thief) >= 2);
        ResourceClient<DynamicObject> events = client.resource(
                        new GroupVersionResource("", "v1", "events"), ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(NS);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> events.list().items().stream()
                        .anyMatch(e -> "ErrResourceExists"
                                        .equals(e.node().path("reason").asString())
                                && "Warning".equals(e.node().path("type").asString())
                                && "thief"
                                        .equals(e.node()
                                                .path("involvedObject")
                                                .path("name")
                                                .asString())));
        Deployment untouched = deployments.get("taken");
        assertThat(untouched.getSpec().getReplicas()).isEqualTo(2);
        assertThat(untouched.getMetadata().getOwnerReferences()).isEmpty();
    }
}
