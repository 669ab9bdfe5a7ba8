package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class FieldSetTest {

    static final String FIELDS =
            "{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:containers':{'k:{\\'name\\':\\'web\\'}':{'.':{},'f:image':{}}}}}";

    static JsonNode fieldsV1() {
        return json(FIELDS).deepCopy();
    }

    @Test
    void fieldsV1RoundTrips() {
        JsonNode in = KubeJsonFixture.parse("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
                + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"web\\\"}\":{\".\":{},\"f:image\":{}}}}}");
        assertThat(FieldSet.fromFieldsV1(in).toFieldsV1()).isEqualTo(in);
    }

    @Test
    void membersPrintAsTheRealServerPrintsPaths() {
        JsonNode in = KubeJsonFixture.parse(
                "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"web\\\"}\":{\".\":{},\"f:image\":{}}},"
                        + "\"f:ports\":{\"k:{\\\"port\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{}}},\"f:metadata\":{\"f:finalizers\":{\"v:\\\"a\\\"\":{}}}}");
        assertThat(FieldSet.fromFieldsV1(in).paths())
                .extracting(FieldPath::toString)
                .containsExactly(
                        ".metadata.finalizers[=\"a\"]",
                        ".spec.containers[name=\"web\"]",
                        ".spec.containers[name=\"web\"].image",
                        ".spec.ports[port=80,protocol=\"TCP\"]");
    }

    @Test
    void objectFieldSetUsesMergeKeysAndMarksItems() {
        StrategicMergeSchema pod = StrategicMergeSchemas.forKind("v1", "Pod").orElseThrow();
        JsonNode obj = json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','labels':{'app':'a'}},"
                + "'spec':{'containers':[{'name':'web','image':'nginx','ports':[{'containerPort':80}]}],"
                + "'tolerations':[{'key':'k'}]}}");
        assertThat(ServerSideApply.fieldSetOf(obj, pod).toFieldsV1())
                .isEqualTo(KubeJsonFixture.parse(
                        "{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"web\\\"}\":"
                                + "{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":"
                                + "{\".\":{},\"f:containerPort\":{}}}}},\"f:tolerations\":{}}}"));
    }

    @Test
    void withoutPrefixesDropsWholeSubtrees() {
        FieldSet s = FieldSet.of(FieldPath.of("status", "phase"), FieldPath.of("spec", "x"));
        assertThat(s.withoutPrefixes(FieldSet.of(FieldPath.of("status"))))
                .isEqualTo(FieldSet.of(FieldPath.of("spec", "x")));
    }

    @Property
    void unionIsCommutative(@ForAll("sets") FieldSet a, @ForAll("sets") FieldSet b) {
        assertThat(a.union(b)).isEqualTo(b.union(a));
    }

    @Property
    void intersectionIsContainedInBoth(@ForAll("sets") FieldSet a, @ForAll("sets") FieldSet b) {
        FieldSet i = a.intersection(b);
        assertThat(i.difference(a).isEmpty()).isTrue();
        assertThat(i.difference(b).isEmpty()).isTrue();
    }

    @Property
    void differenceThenUnionRestoresTheUnion(@ForAll("sets") FieldSet a, @ForAll("sets") FieldSet b) {
        assertThat(a.difference(b).union(b)).isEqualTo(a.union(b));
    }

    @Property
    void differenceIsDisjointFromTheSubtrahend(@ForAll("sets") FieldSet a, @ForAll("sets") FieldSet b) {
        assertThat(a.difference(b).intersection(b).isEmpty()).isTrue();
    }

    @Property
    void fieldsV1RoundTripsAnySet(@ForAll("sets") FieldSet a) {
        assertThat(FieldSet.fromFieldsV1(a.toFieldsV1())).isEqualTo(a);
    }

    @Provide
    Arbitrary<FieldSet> sets() {
        Arbitrary<PathElement> elements = Arbitraries.oneOf(
                Arbitraries.of("a", "b", "c").map(PathElement.Field::new),
                Arbitraries.of("x", "y").map(n -> (PathElement) new PathElement.Key("{\"name\":\"" + n + "\"}")),
                Arbitraries.of(1, 2).map(n -> (PathElement) new PathElement.Value(String.valueOf(n))));
        Arbitrary<FieldPath> paths = elements.list().ofMinSize(1).ofMaxSize(3).map(FieldPath::new);
        return paths.list().ofMaxSize(6).map(l -> FieldSet.of(l.toArray(FieldPath[]::new)));
    }

    /** Parses plain JSON (the fixtures above need real double quotes inside keys). */
    static final class KubeJsonFixture {
        static JsonNode parse(String s) {
            return KubeJson.mapper().readTree(s);
        }
    }

    static List<String> strings(FieldSet s) {
        return s.paths().stream().map(FieldPath::toString).toList();
    }
}
