package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class PredicatesTest {

    static DynamicObject foo(String rv, long generation, String labels, String annotations, String status) {
        return DynamicObject.parse("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                + "\"metadata\":{\"namespace\":\"ns\",\"name\":\"a\",\"resourceVersion\":\"" + rv + "\",\"generation\":"
                + generation + ",\"labels\":{" + labels + "},\"annotations\":{" + annotations + "}},"
                + "\"status\":{\"phase\":\"" + status + "\"}}");
    }

    private static final DynamicObject BASE = foo("1", 1, "\"app\":\"web\"", "\"a\":\"1\"", "Pending");

    private static Event<DynamicObject> update(DynamicObject after) {
        return new Event.Update<>(BASE, after);
    }

    @Test
    void generationChangedDropsStatusOnlyUpdatesAndResyncsAndPassesSpecChanges() {
        Predicate<Event<DynamicObject>> p = Predicates.generationChanged();
        assertThat(p.test(update(foo("2", 1, "\"app\":\"web\"", "\"a\":\"1\"", "Running"))))
                .as("status only")
                .isFalse();
        assertThat(p.test(update(BASE))).as("resync").isFalse();
        assertThat(p.test(update(foo("3", 2, "\"app\":\"web\"", "\"a\":\"1\"", "Pending"))))
                .as("spec change")
                .isTrue();
        assertThat(p.test(new Event.Create<>(BASE, true))).isTrue();
        assertThat(p.test(new Event.Delete<>(BASE, false))).isTrue();
        assertThat(p.test(new Event.Generic<>(BASE))).isTrue();
    }

    @Test
    void resourceVersionChangedDropsOnlyResyncs() {
        Predicate<Event<DynamicObject>> p = Predicates.resourceVersionChanged();
        assertThat(p.test(update(BASE))).isFalse();
        assertThat(p.test(update(foo("2", 1, "\"app\":\"web\"", "\"a\":\"1\"", "Running"))))
                .isTrue();
    }

    @Test
    void labelAndAnnotationChangedCompareTheMaps() {
        DynamicObject relabelled = foo("2", 1, "\"app\":\"db\"", "\"a\":\"1\"", "Pending");
        DynamicObject annotated = foo("2", 1, "\"app\":\"web\"", "\"a\":\"2\"", "Pending");
        assertThat(Predicates.<DynamicObject>labelChanged().test(update(relabelled)))
                .isTrue();
        assertThat(Predicates.<DynamicObject>labelChanged().test(update(annotated)))
                .isFalse();
        assertThat(Predicates.<DynamicObject>annotationChanged().test(update(annotated)))
                .isTrue();
        assertThat(Predicates.<DynamicObject>annotationChanged().test(update(relabelled)))
                .isFalse();
    }

    @Test
    void labelSelectorFiltersEveryKindOfEventAndComposesWithAndOrNegate() {
        Predicate<Event<DynamicObject>> web = Predicates.labelSelector(LabelSelector.parse("app=web"));
        DynamicObject db = foo("2", 2, "\"app\":\"db\"", "", "Pending");
        assertThat(web.test(new Event.Create<>(BASE, false))).isTrue();
        assertThat(web.test(new Event.Delete<>(db, false))).isFalse();
        assertThat(web.test(update(db)))
                .as("an update is judged by the new object")
                .isFalse();

        Predicate<Event<DynamicObject>> webSpecChanges = web.and(Predicates.generationChanged());
        assertThat(webSpecChanges.test(update(BASE))).isFalse();
        assertThat(webSpecChanges.test(new Event.Create<>(BASE, false))).isTrue();
        assertThat(web.negate().test(new Event.Delete<>(db, false))).isTrue();
    }

    /** A typed object. */
    record Foo(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    /** A typed object that counts how often its metadata is read. */
    record Counted(ObjectMeta meta, AtomicInteger reads) implements KubernetesObject {
        @Override
        public String apiVersion() {
            return "v1";
        }

        @Override
        public String kind() {
            return "Counted";
        }

        @Override
        public ObjectMeta metadata() {
            reads.incrementAndGet();
            return meta;
        }
    }

    private static String json(String metadata) {
        return "{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\",\"metadata\":{\"namespace\":\"ns\","
                + "\"name\":\"a\"" + metadata + "},\"spec\":{\"replicas\":1}}";
    }

    /** The object of {@code json} typed, as a tree and compact. */
    private static List<Object> forms(String json) {
        DynamicObject compact = DynamicObject.fromJson(json.getBytes(StandardCharsets.UTF_8));
        assertThat(compact.isCompact()).isTrue();
        return List.of(KubeJson.mapper().readValue(json, Foo.class), DynamicObject.parse(json), compact);
    }

    @Test
    void resourceVersionAndLabelChangedAnswerAlikeForTypedTreeAndCompactObjects() {
        record Case(String before, String after, boolean rvChanged, boolean labelsChanged) {}
        List<Case> cases = List.of(
                new Case(
                        ",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}",
                        ",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}",
                        false,
                        false),
                new Case(
                        ",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}",
                        ",\"resourceVersion\":\"8\",\"labels\":{\"app\":\"web\"}",
                        true,
                        false),
                new Case(
                        ",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}",
                        ",\"resourceVersion\":\"8\",\"labels\":{\"app\":\"db\"}",
                        true,
                        true),
                new Case(",\"resourceVersion\":\"7\"", ",\"resourceVersion\":\"8\",\"labels\":{}", true, false),
                new Case(
                        ",\"resourceVersion\":\"7\"",
                        ",\"resourceVersion\":\"8\",\"labels\":{\"app\":\"web\"}",
                        true,
                        true),
                new Case(
                        ",\"labels\":{\"app\":\"web\",\"tier\":\"a\"}",
                        ",\"labels\":{\"tier\":\"a\",\"app\":\"web\"}",
                        false,
                        false));
        for (Case c : cases) {
            List<Object> before = forms(json(c.before()));
            List<Object> after = forms(json(c.after()));
            for (int f = 0; f < before.size(); f++) {
                Event<Object> update = new Event.Update<>(before.get(f), after.get(f));
                String what = before.get(f).getClass().getSimpleName() + " " + c;
                assertThat(Predicates.resourceVersionChanged().test(update))
                        .as("resourceVersionChanged, %s", what)
                        .isEqualTo(c.rvChanged());
                assertThat(Predicates.labelChanged().test(update))
                        .as("labelChanged, %s", what)
                        .isEqualTo(c.labelsChanged());
            }
        }
    }

    @Test
    void resourceVersionAndLabelChangedReadCompactObjectsWithoutParsingTheirMetadata() {
        // metadata that does not parse as ObjectMeta: any full parse would throw
        Function<String, DynamicObject> unparseable = rest -> DynamicObject.fromJson(
                json(",\"generation\":\"not a number\"" + rest).getBytes(StandardCharsets.UTF_8));
        DynamicObject before = unparseable.apply(",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}");
        DynamicObject resynced = unparseable.apply(",\"resourceVersion\":\"7\",\"labels\":{\"app\":\"web\"}");
        DynamicObject relabelled = unparseable.apply(",\"resourceVersion\":\"8\",\"labels\":{\"app\":\"db\"}");
        assertThatThrownBy(before::metadata).as("a metadata parse").isInstanceOf(RuntimeException.class);

        assertThat(Predicates.<DynamicObject>resourceVersionChanged().test(new Event.Update<>(before, resynced)))
                .isFalse();
        assertThat(Predicates.<DynamicObject>resourceVersionChanged().test(new Event.Update<>(before, relabelled)))
                .isTrue();
        assertThat(Predicates.<DynamicObject>labelChanged().test(new Event.Update<>(before, resynced)))
                .isFalse();
        assertThat(Predicates.<DynamicObject>labelChanged().test(new Event.Update<>(before, relabelled)))
                .isTrue();
    }

    @Test
    void resourceVersionChangedReadsTheUpdatesCarriedVerdictNotTheObjects() {
        AtomicInteger reads = new AtomicInteger();
        Counted a =
                new Counted(ObjectMeta.builder().name("a").resourceVersion("7").build(), reads);
        Counted b =
                new Counted(ObjectMeta.builder().name("a").resourceVersion("8").build(), reads);

        assertThat(Predicates.<Counted>resourceVersionChanged().test(new Event.Update<>(a, b, false)))
                .isTrue();
        assertThat(Predicates.<Counted>resourceVersionChanged().test(new Event.Update<>(a, a, true)))
                .isFalse();
        assertThat(reads).as("metadata reads").hasValue(0);
        assertThat(new Event.Update<>(a, b).unchanged())
                .as("computed when not given")
                .isFalse();
        assertThat(new Event.Update<>(a, a).unchanged()).isTrue();
    }
}
