package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@link Json#deepEquals}: equal exactly when the canonical texts are equal. */
class JsonEqualityTest {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Test
    void objectKeyOrderDoesNotMatter() {
        assertThat(Json.deepEquals(json("{'a':1,'b':[1,'x',{'c':null}]}"), json("{'b':[1,'x',{'c':null}],'a':1}")))
                .isTrue();
    }

    @Test
    void integersCompareByValueWhateverTheirNodeType() {
        assertThat(Json.deepEquals(F.numberNode(1), F.numberNode(1L))).isTrue();
        assertThat(Json.deepEquals(F.numberNode(7L), F.numberNode(BigInteger.valueOf(7))))
                .isTrue();
    }

    @Test
    void anIntegerNeverEqualsAFloat() {
        assertThat(Json.deepEquals(json("1"), json("1.0"))).isFalse();
        assertThat(Json.deepEquals(json("{'a':[1]}"), json("{'a':[1.0]}"))).isFalse();
    }

    @Test
    void missingNullAndAbsentMembersDiffer() {
        assertThat(Json.deepEquals(json("{'a':null}"), json("{}"))).isFalse();
        assertThat(Json.deepEquals(json("{'a':null}"), json("{'b':null}"))).isFalse();
        assertThat(Json.deepEquals(json("null"), json("'null'"))).isFalse();
        assertThat(Json.deepEquals(json("[]"), json("{}"))).isFalse();
    }

    @Test
    void agreesWithTheCanonicalTextOnRandomTrees() {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            JsonNode a = tree(random, 3);
            JsonNode b = random.nextBoolean() ? mutate(reordered(a, random), random) : tree(random, 3);
            assertThat(Json.deepEquals(a, b))
                    .as("%s vs %s", a, b)
                    .isEqualTo(Json.canonical(a).equals(Json.canonical(b)));
            assertThat(Json.deepEquals(a, reordered(a, random))).isTrue();
        }
    }

    private static JsonNode tree(Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 9 : 7);
        return switch (kind) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(r.nextBoolean());
            case 2 -> F.numberNode(r.nextInt(3));
            case 3 -> F.numberNode((long) r.nextInt(3));
            case 4 -> F.numberNode(r.nextInt(3) / 2.0);
            case 5 -> F.stringNode(List.of("", "a", "1", "null", "true").get(r.nextInt(5)));
            case 6 -> F.stringNode("b");
            case 7 -> {
                ArrayNode a = F.arrayNode();
                for (int i = r.nextInt(3); i > 0; i--) {
                    a.add(tree(r, depth - 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                for (int i = r.nextInt(3); i > 0; i--) {
                    o.set(List.of("a", "b", "c").get(r.nextInt(3)), tree(r, depth - 1));
                }
                yield o;
            }
        };
    }

    /** A deep copy with every object's members in a shuffled order. */
    private static JsonNode reordered(JsonNode n, Random r) {
        if (n.isObject()) {
            List<String> names = new ArrayList<>(n.propertyNames());
            Collections.shuffle(names, r);
            ObjectNode o = F.objectNode();
            names.forEach(k -> o.set(k, reordered(n.get(k), r)));
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = F.arrayNode();
            n.forEach(x -> a.add(reordered(x, r)));
            return a;
        }
        return n.deepCopy();
    }

    /** Sometimes replaces one leaf or member of {@code n} (in place) with a random value. */
    private static JsonNode mutate(JsonNode n, Random r) {
        if (r.nextInt(3) == 0) {
            return tree(r, 1);
        }
        if (n instanceof ObjectNode o && !o.isEmpty()) {
            String k = new ArrayList<>(o.propertyNames()).get(r.nextInt(o.size()));
            o.set(k, mutate(o.get(k), r));
        } else if (n instanceof ArrayNode a && !a.isEmpty()) {
            int i = r.nextInt(a.size());
            a.set(i, mutate(a.get(i), r));
        }
        return n;
    }
}
