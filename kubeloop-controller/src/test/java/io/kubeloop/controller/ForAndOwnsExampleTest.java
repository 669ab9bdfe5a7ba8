package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupKind;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.testing.FakeListerWatcher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A controller on Foos that owns Deployments, built as the docs show (printing replaced by recording; the informers
 * run over {@link FakeListerWatcher}s holding one Foo and the Deployment it owns).
 */
@Timeout(30)
class ForAndOwnsExampleTest {

    @Test
    void theFooIsReconciledForItselfAndForItsDeployment() {
        FakeListerWatcher<DynamicObject> fooStore = FakeListerWatcher.dynamic();
        fooStore.add(DynamicObject.parse("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                + "\"metadata\":{\"namespace\":\"default\",\"name\":\"foo\",\"uid\":\"u1\",\"generation\":1}}"));
        FakeListerWatcher<DynamicObject> deploymentStore = FakeListerWatcher.dynamic();
        deploymentStore.add(EventHandlerTest.deployment(
                "default",
                "foo-deploy",
                EventHandlerTest.owner("samplecontroller.k8s.io/v1alpha1", "Foo", "foo", true)));
        SharedIndexInformer<DynamicObject> foos = SharedIndexInformer.create(fooStore, InformerOptions.defaults());
        SharedIndexInformer<DynamicObject> deployments =
                SharedIndexInformer.create(deploymentStore, InformerOptions.defaults());
        List<Request> seen = new CopyOnWriteArrayList<>();

        Controller controller = Controller.create(
                (request, context) -> {
                    seen.add(request);
                    return Result.done();
                },
                ControllerOptions.builder("foo-controller")
                        .maxConcurrentReconciles(4)
                        .build());

        controller.watch(foos, EventHandler.forObject(), Predicates.generationChanged());
        controller.watch(
                deployments,
                EventHandler.forOwner(new GroupKind("samplecontroller.k8s.io", "Foo"), ResourceScope.NAMESPACED));
        foos.start();
        deployments.start();

        controller.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !seen.isEmpty());
        controller.queue().add(Request.of("default", "foo"));
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() >= 2);

        controller.close();
        foos.close();
        deployments.close();

        assertThat(seen)
                .as("the Foo and its Deployment's owner are one request")
                .allMatch(r -> r.equals(Request.of("default", "foo")));
        assertThat(seen.getFirst()).hasToString("default/foo");
    }
}
