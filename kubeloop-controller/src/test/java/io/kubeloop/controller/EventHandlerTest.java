package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupKind;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventHandlerTest {

    private static final GroupKind FOO = new GroupKind("samplecontroller.k8s.io", "Foo");

    private final RateLimitingQueue<Request> queue = RateLimitingQueue.create();

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    /** Everything queued, in order. */
    private List<Request> drain() {
        List<Request> out = new ArrayList<>();
        while (queue.len() > 0) {
            Optional<Request> r = queue.get();
            out.add(r.orElseThrow());
            queue.done(r.get());
        }
        return out;
    }

    static DynamicObject deployment(String namespace, String name, String owners) {
        return DynamicObject.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{"
                + (namespace == null ? "" : "\"namespace\":\"" + namespace + "\",")
                + "\"name\":\"" + name + "\",\"ownerReferences\":[" + owners + "]}}");
    }

    static String owner(String apiVersion, String kind, String name, boolean controller) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"name\":\"" + name + "\",\"uid\":\"u-"
                + name + "\",\"controller\":" + controller + "}";
    }

    @Test
    void forObjectEnqueuesTheObjectsOwnKeyAndTheNewKeyOfAnUpdate() {
        EventHandler<DynamicObject> handler = EventHandler.forObject();
        handler.handle(new Event.Create<>(deployment("ns", "a", ""), false), queue);
        handler.handle(new Event.Update<>(deployment("ns", "b", ""), deployment("ns", "c", "")), queue);
        handler.handle(new Event.Delete<>(deployment("ns", "d", ""), true), queue);
        handler.handle(new Event.Generic<>(deployment(null, "e", "")), queue);

        assertThat(drain())
                .containsExactly(
                        Request.of("ns", "a"), Request.of("ns", "c"), Request.of("ns", "d"), Request.of("", "e"));
    }

    @Test
    void forOwnerEnqueuesTheControllingOwnerOfTheKindOnly() {
        EventHandler<DynamicObject> handler = EventHandler.forOwner(FOO, ResourceScope.NAMESPACED);
        String owners = String.join(
                ",",
                owner("samplecontroller.k8s.io/v1alpha1", "Foo", "plain-owner", false),
                owner("samplecontroller.k8s.io/v1alpha1", "Foo", "the-controller", true),
                owner("other.example.com/v1", "Foo", "other-group", true),
                owner("samplecontroller.k8s.io/v1alpha1", "Bar", "other-kind", true));

        handler.handle(new Event.Create<>(deployment("ns", "d", owners), false), queue);

        assertThat(drain()).containsExactly(Request.of("ns", "the-controller"));
    }

    @Test
    void forEveryOwnerAlsoEnqueuesOwnersThatAreNotTheController() {
        EventHandler<DynamicObject> handler = EventHandler.forEveryOwner(FOO, ResourceScope.NAMESPACED);
        String owners = String.join(
                ",",
                owner("samplecontroller.k8s.io/v1alpha1", "Foo", "plain-owner", false),
                owner("samplecontroller.k8s.io/v1beta1", "Foo", "the-controller", true));

        handler.handle(new Event.Create<>(deployment("ns", "d", owners), false), queue);

        assertThat(drain()).containsExactly(Request.of("ns", "plain-owner"), Request.of("ns", "the-controller"));
    }

    @Test
    void aClusterScopedOwnerIsRequestedWithoutANamespace() {
        GroupKind node = new GroupKind("", "Node");
        EventHandler<DynamicObject> handler = EventHandler.forOwner(node, ResourceScope.CLUSTER);

        handler.handle(new Event.Create<>(deployment("ns", "d", owner("v1", "Node", "node-1", true)), false), queue);

        assertThat(drain()).containsExactly(Request.of("", "node-1"));
    }

    @Test
    void anUpdateEnqueuesTheOwnersOfTheOldAndTheNewObjectOnceEach() {
        EventHandler<DynamicObject> handler = EventHandler.forOwner(FOO, ResourceScope.NAMESPACED);
        String api = "samplecontroller.k8s.io/v1alpha1";
        DynamicObject before = deployment("ns", "d", owner(api, "Foo", "old-owner", true));
        DynamicObject after = deployment("ns", "d", owner(api, "Foo", "new-owner", true));

        handler.handle(new Event.Update<>(before, after), queue);
        assertThat(drain()).containsExactly(Request.of("ns", "old-owner"), Request.of("ns", "new-owner"));

        List<Request> mapped = new ArrayList<>();
        EventHandler<DynamicObject> mapper = EventHandler.fromMapFunction(o -> {
            Request r = Request.of("ns", "for-" + o.metadata().name());
            mapped.add(r);
            return List.of(r, Request.of("ns", "shared"));
        });
        mapper.handle(new Event.Update<>(before, after), queue);
        assertThat(mapped).as("both objects mapped").hasSize(2);
        assertThat(drain()).containsExactly(Request.of("ns", "for-d"), Request.of("ns", "shared"));
    }

    @Test
    void handlersReadFabric8ModelObjectsToo() {
        var deployment = new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("d")
                .addNewOwnerReference()
                .withApiVersion("samplecontroller.k8s.io/v1alpha1")
                .withKind("Foo")
                .withName("foo")
                .withUid("u1")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .build();

        EventHandler.<Deployment>forOwner(FOO, ResourceScope.NAMESPACED)
                .handle(new Event.Create<>(deployment, false), queue);
        EventHandler.<Deployment>forObject().handle(new Event.Create<>(deployment, false), queue);

        assertThat(drain()).containsExactly(Request.of("ns", "foo"), Request.of("ns", "d"));
    }
}
