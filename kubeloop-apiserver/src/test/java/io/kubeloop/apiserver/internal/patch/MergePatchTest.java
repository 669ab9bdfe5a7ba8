package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class MergePatchTest {

    static JsonNode merge(String doc, String patch) {
        return MergePatch.apply(json(doc), patch.replace('\'', '"'));
    }

    @Test
    void nullDeletesAMember() {
        assertThat(merge("{'metadata':{'labels':{'a':'1','b':'2'}}}", "{'metadata':{'labels':{'a':null}}}"))
                .isEqualTo(json("{'metadata':{'labels':{'b':'2'}}}"));
    }

    @Test
    void objectsMergeRecursively() {
        assertThat(merge("{'spec':{'replicas':1,'paused':false}}", "{'spec':{'replicas':3}}"))
                .isEqualTo(json("{'spec':{'replicas':3,'paused':false}}"));
    }

    @Test
    void arraysAreReplaced() {
        assertThat(merge("{'l':[1,2,3]}", "{'l':[4]}")).isEqualTo(json("{'l':[4]}"));
    }

    @Test
    void nullsInsideANewObjectAreDropped() {
        assertThat(merge("{}", "{'a':{'b':null,'c':1}}")).isEqualTo(json("{'a':{'c':1}}"));
    }

    @Test
    void scalarPatchIsABadRequest() {
        assertThatThrownBy(() -> merge("{}", "'x'")).isInstanceOfSatisfying(PatchException.class, e -> {
            assertThat(e.code()).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("Invalid JSON Patch");
        });
    }

    @Test
    void nullPatchIsABadRequest() {
        assertThatThrownBy(() -> merge("{}", "null"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    @Test
    void arrayPatchIsInvalid() {
        assertThatThrownBy(() -> merge("{}", "[1]"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(422));
    }

    @Property
    void applyingTheDiffGivesTheTarget(@ForAll("objects") JsonNode a, @ForAll("objects") JsonNode b) {
        ObjectNode diff = MergePatch.diff(a, b);
        assertThat(MergePatch.apply(a, diff)).isEqualTo(b);
    }

    @Property
    void diffOfAnObjectWithItselfIsEmpty(@ForAll("objects") JsonNode a) {
        assertThat(MergePatch.diff(a, a).isEmpty()).isTrue();
    }

    @Provide
    Arbitrary<JsonNode> objects() {
        Arbitrary<String> keys = Arbitraries.of("a", "b", "c", "d");
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 3).map(i -> (JsonNode) Json.NODES.numberNode(i)),
                Arbitraries.of("x", "y").map(s -> (JsonNode) Json.NODES.stringNode(s)),
                Arbitraries.integers().between(0, 2).list().ofMaxSize(2).map(l -> {
                    var arr = Json.array();
                    l.forEach(arr::add);
                    return (JsonNode) arr;
                }));
        Arbitrary<JsonNode> level2 =
                Arbitraries.maps(keys, scalars).ofMaxSize(3).map(MergePatchTest::toObject);
        Arbitrary<JsonNode> values = Arbitraries.oneOf(scalars, level2);
        return Arbitraries.maps(keys, values).ofMaxSize(4).map(MergePatchTest::toObject);
    }

    private static JsonNode toObject(Map<String, JsonNode> map) {
        ObjectNode o = Json.object();
        map.forEach(o::set);
        return o;
    }
}
