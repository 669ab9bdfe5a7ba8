package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.selector.LabelSelector;
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

    // controller-semantics.md, test matrix line 53
    @Test
    void generationChangedDropsStatusOnlyUpdatesAndResyncsAndPassesSpecChanges() {
        Predicate<Event<DynamicObject>> p = Predicates.generationChanged();
        assertThat(p.test(update(foo("2", 1, "\"app\":\"web\"", "\"a\":\"1\"", "Running")))).as("status only").isFalse();
        assertThat(p.test(update(BASE))).as("resync").isFalse();
        assertThat(p.test(update(foo("3", 2, "\"app\":\"web\"", "\"a\":\"1\"", "Pending")))).as("spec change").isTrue();
        assertThat(p.test(new Event.Create<>(BASE, true))).isTrue();
        assertThat(p.test(new Event.Delete<>(BASE, false))).isTrue();
        assertThat(p.test(new Event.Generic<>(BASE))).isTrue();
    }

    @Test
    void resourceVersionChangedDropsOnlyResyncs() {
        Predicate<Event<DynamicObject>> p = Predicates.resourceVersionChanged();
        assertThat(p.test(update(BASE))).isFalse();
        assertThat(p.test(update(foo("2", 1, "\"app\":\"web\"", "\"a\":\"1\"", "Running")))).isTrue();
    }

    @Test
    void labelAndAnnotationChangedCompareTheMaps() {
        DynamicObject relabelled = foo("2", 1, "\"app\":\"db\"", "\"a\":\"1\"", "Pending");
        DynamicObject annotated = foo("2", 1, "\"app\":\"web\"", "\"a\":\"2\"", "Pending");
        assertThat(Predicates.<DynamicObject>labelChanged().test(update(relabelled))).isTrue();
        assertThat(Predicates.<DynamicObject>labelChanged().test(update(annotated))).isFalse();
        assertThat(Predicates.<DynamicObject>annotationChanged().test(update(annotated))).isTrue();
        assertThat(Predicates.<DynamicObject>annotationChanged().test(update(relabelled))).isFalse();
    }

    @Test
    void labelSelectorFiltersEveryKindOfEventAndComposesWithAndOrNegate() {
        Predicate<Event<DynamicObject>> web = Predicates.labelSelector(LabelSelector.parse("app=web"));
        DynamicObject db = foo("2", 2, "\"app\":\"db\"", "", "Pending");
        assertThat(web.test(new Event.Create<>(BASE, false))).isTrue();
        assertThat(web.test(new Event.Delete<>(db, false))).isFalse();
        assertThat(web.test(update(db))).as("an update is judged by the new object").isFalse();

        Predicate<Event<DynamicObject>> webSpecChanges = web.and(Predicates.generationChanged());
        assertThat(webSpecChanges.test(update(BASE))).isFalse();
        assertThat(webSpecChanges.test(new Event.Create<>(BASE, false))).isTrue();
        assertThat(web.negate().test(new Event.Delete<>(db, false))).isTrue();
    }
}
