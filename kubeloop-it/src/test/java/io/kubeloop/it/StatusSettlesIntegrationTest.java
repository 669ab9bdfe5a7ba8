package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.Condition;
import io.kubeloop.api.Conditions;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.ListMapKeys;
import io.kubeloop.api.crd.ListType;
import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Result;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reconciler that writes its status on every reconcile, with conditions set by
 * {@link Conditions#setStatusCondition}, settles: after a change it reconciles a bounded number of
 * times and then not again — its own status write brings it back once, and that reconcile finds the
 * status right. Against the embedded API server, with a CRD the generator wrote from a record whose
 * status holds {@link Condition}s (so the server validates them with metav1's schema).
 */
@Timeout(120)
class StatusSettlesIntegrationTest extends EmbeddedServerTestBase {

    @Kind(group = "example.com", version = "v1")
    @CustomResource(status = true)
    record Widget(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
            implements KubernetesObject {
        record Spec(Integer size) {}

        record Status(
                Long observedGeneration,
                @ListType("map") @ListMapKeys("type") List<Condition> conditions) {}

        Widget withStatus(Status newStatus) {
            return new Widget(apiVersion, kind, metadata, spec, newStatus);
        }

        List<Condition> conditionsOrEmpty() {
            return status == null || status.conditions() == null ? List.of() : status.conditions();
        }
    }

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private KubeClient counted;
    private Manager manager;
    private final List<String> writeLog = new CopyOnWriteArrayList<>();
    private final AtomicInteger reconciles = new AtomicInteger();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    @BeforeEach
    void installCrdAndCountWrites() {
        ResourceClient<DynamicObject> crds = client.resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class);
        crds.create(DynamicObject.wrap(CrdGenerator.crds(List.of(Widget.class)).getFirst()));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> crds.get("widgets.example.com")
                        .at("/status/conditions")
                        .map(cs -> cs.toString().contains("\"Established\""))
                        .orElse(false));
        counted = KubeClient.create(
                server.clientConfig(),
                ClientOptions.defaults().toBuilder()
                        .interceptors(List.of(chain -> {
                            ApiRequest r = chain.request();
                            if (!r.isSafe()) {
                                writeLog.add(r.method() + " " + r.uri().getPath());
                            }
                            return chain.proceed(r);
                        }))
                        .build());
    }

    @AfterEach
    void close() {
        if (manager != null) {
            manager.close();
        }
        counted.close();
    }

    private ResourceClient<Widget> widgets() {
        return client.resource(Widget.class).inNamespace("default");
    }

    /** The status a reconcile observes for {@code widget}: ready at its size, for its generation. */
    private static Widget observed(Widget widget, Ticker clock) {
        long generation = widget.metadata().generation();
        List<Condition> conditions = new ArrayList<>(widget.conditionsOrEmpty());
        Conditions.setStatusCondition(
                conditions,
                Condition.of(
                                "Ready",
                                Condition.Status.TRUE,
                                "Sized",
                                "size " + widget.spec().size())
                        .withObservedGeneration(generation),
                clock);
        return widget.withStatus(new Widget.Status(generation, conditions));
    }

    /** Starts a controller whose reconciles each write the observed status with {@code write}. */
    private void start(BiConsumer<ReconcileContext, Widget> write) {
        manager = Manager.create(counted);
        ControllerBuilder.forResource(Widget.class).build(manager, (request, context) -> {
            try {
                Optional<Widget> widget = context.client().getOptional(Widget.class, request.key());
                widget.ifPresent(w -> write.accept(context, w));
                return Result.done();
            } catch (RuntimeException e) {
                failures.add(e);
                throw e;
            } finally {
                reconciles.incrementAndGet();
            }
        });
        manager.start();
    }

    /** Waits until the status says {@code generation} and then nothing reconciles for a second; returns the count. */
    private int awaitSettledAt(long generation) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(failures).isEmpty();
            Widget w = widgets().get("w");
            assertThat(w.status()).isNotNull();
            assertThat(w.status().observedGeneration()).isEqualTo(generation);
        });
        int[] last = {reconciles.get()};
        await().atMost(Duration.ofSeconds(30)).during(Duration.ofSeconds(1)).until(() -> {
            int now = reconciles.get();
            boolean same = now == last[0];
            last[0] = now;
            return same;
        });
        return reconciles.get();
    }

    /** Runs a create and a change; returns the writes the change caused. */
    private List<String> settlesAfterACreateAndAChange(BiConsumer<ReconcileContext, Widget> write) {
        start(write);
        widgets()
                .create(new Widget(
                        "example.com/v1", "Widget", ObjectMeta.of("default", "w"), new Widget.Spec(1), null));

        int afterCreate = awaitSettledAt(1);
        assertThat(afterCreate).as("reconciles after the create").isBetween(1, 3);
        Condition ready = Conditions.findStatusCondition(widgets().get("w").conditionsOrEmpty(), "Ready")
                .orElseThrow();
        assertThat(ready.message()).isEqualTo("size 1");

        writeLog.clear();
        widgets().patch("w", PatchType.MERGE, "{\"spec\":{\"size\":2}}");

        int afterChange = awaitSettledAt(2);
        assertThat(afterChange - afterCreate).as("reconciles after one change").isBetween(1, 3);
        Condition stillReady = Conditions.findStatusCondition(widgets().get("w").conditionsOrEmpty(), "Ready")
                .orElseThrow();
        assertThat(stillReady.message()).isEqualTo("size 2");
        assertThat(stillReady.observedGeneration()).isEqualTo(2);
        assertThat(stillReady.lastTransitionTime())
                .as("the status stayed True: the transition time is kept")
                .isEqualTo(ready.lastTransitionTime());
        return List.copyOf(writeLog);
    }

    @Test
    void aStatusWrittenWithUpdateIfChangedSettlesAndSendsOneWritePerChange() {
        List<String> writes = settlesAfterACreateAndAChange((context, widget) ->
                context.client().status().updateIfChanged(widget, observed(widget, context.ticker())));
        assertThat(writes)
                .as("one status write for the change; the reconcile it causes sends none")
                .containsExactly("PUT /apis/example.com/v1/namespaces/default/widgets/w/status");
    }

    @Test
    void aStatusWrittenOnEveryReconcileSettlesAsTheServerWritesNothingForAnIdenticalOne() {
        List<String> writes = settlesAfterACreateAndAChange(
                (context, widget) -> context.client().status().update(observed(widget, context.ticker())));
        assertThat(writes)
                .as("a write per reconcile, the last one changing nothing on the server")
                .hasSizeBetween(2, 3)
                .containsOnly("PUT /apis/example.com/v1/namespaces/default/widgets/w/status");
    }

    @Test
    void theServerValidatesConditionsWithMetav1Schema() {
        Widget w = widgets()
                .create(new Widget(
                        "example.com/v1", "Widget", ObjectMeta.of("default", "w"), new Widget.Spec(1), null));
        Condition bad = new Condition("Ready", Condition.Status.TRUE, 0, Instant.now(), "not a reason", "");
        assertThatThrownBy(() ->
                        widgets().updateStatus(w.withStatus(new Widget.Status(1L, List.of(bad))), WriteOptions.none()))
                .isInstanceOf(InvalidException.class)
                .hasMessageContaining("status.conditions[0].reason");
    }
}
