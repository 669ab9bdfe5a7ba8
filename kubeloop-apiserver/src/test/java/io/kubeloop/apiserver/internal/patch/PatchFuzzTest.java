package io.kubeloop.apiserver.internal.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Arbitrary patches against a Deployment: random JSON built from the Deployment's field names, patch operations and
 * strategic-merge directives ({@code $patch}, {@code $setElementOrder}, {@code $retainKeys},
 * {@code $deleteFromPrimitiveList}), mutated patch text, and nesting past 10,000 levels. JSON patch, merge patch,
 * strategic merge patch and server-side apply each give a result or a {@link PatchException} with an HTTP code,
 * never another exception, never a stack overflow.
 */
class PatchFuzzTest {

    private static final StrategicMergeSchema DEPLOYMENT =
            StrategicMergeSchemas.forKind("apps/v1", "Deployment").orElseThrow();
    private static final JsonNode LIVE = KubeJson.mapper().readTree(StrategicMergePatchTest.LIVE.replace('\'', '"'));
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> KEYS = List.of(
            "apiVersion",
            "kind",
            "metadata",
            "name",
            "labels",
            "annotations",
            "managedFields",
            "spec",
            "replicas",
            "template",
            "containers",
            "image",
            "ports",
            "containerPort",
            "protocol",
            "env",
            "value",
            "tolerations",
            "key",
            "operator",
            "strategy",
            "type",
            "rollingUpdate",
            "maxSurge",
            "op",
            "path",
            "from",
            "$patch",
            "$setElementOrder/containers",
            "$setElementOrder/env",
            "$retainKeys",
            "$deleteFromPrimitiveList/finalizers",
            "finalizers",
            "x",
            "");
    private static final List<String> STRINGS = List.of(
            "web",
            "sidecar",
            "A",
            "replace",
            "delete",
            "merge",
            "add",
            "remove",
            "move",
            "copy",
            "test",
            "/spec",
            "/spec/template/spec/containers/0",
            "/spec/template/spec/containers/-",
            "/metadata/labels/app",
            "/x/y",
            "/spec/replicas",
            "",
            "/",
            "~",
            "/~2",
            "/-1",
            "/99999999999",
            "apps/v1",
            "Deployment",
            "TCP");

    private static JsonNode randomJson(Random r, int depth) {
        int choice = r.nextInt(depth > 4 ? 6 : 9);
        return switch (choice) {
            case 0 -> F.stringNode(STRINGS.get(r.nextInt(STRINGS.size())));
            case 1 -> F.numberNode(r.nextInt(5) - 1);
            case 2 -> F.booleanNode(r.nextBoolean());
            case 3 -> F.nullNode();
            case 4 -> F.numberNode(r.nextDouble() * 1e20);
            case 5 -> F.stringNode("x".repeat(r.nextInt(3)));
            case 6, 7 -> {
                ObjectNode o = F.objectNode();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    o.set(KEYS.get(r.nextInt(KEYS.size())), randomJson(r, depth + 1));
                }
                yield o;
            }
            default -> {
                var a = F.arrayNode();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    a.add(randomJson(r, depth + 1));
                }
                yield a;
            }
        };
    }

    /** A random patch operation list, as JSON patch expects, with random paths and values. */
    private static JsonNode randomOperations(Random r) {
        var ops = F.arrayNode();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            ObjectNode op = F.objectNode();
            op.put(
                    "op",
                    List.of("add", "remove", "replace", "move", "copy", "test", "junk")
                            .get(r.nextInt(7)));
            op.put("path", STRINGS.get(r.nextInt(STRINGS.size())));
            if (r.nextBoolean()) {
                op.put("from", STRINGS.get(r.nextInt(STRINGS.size())));
            }
            if (r.nextInt(4) > 0) {
                op.set("value", randomJson(r, 2));
            }
            ops.add(op);
        }
        return ops;
    }

    @Provide
    Arbitrary<String> patches() {
        Arbitrary<String> trees = Arbitraries.randomValue(r -> KubeJson.mapper().writeValueAsString(randomJson(r, 0)));
        Arbitrary<String> operations =
                Arbitraries.randomValue(r -> KubeJson.mapper().writeValueAsString(randomOperations(r)));
        Arbitrary<String> valid = Arbitraries.oneOf(trees, operations);
        Arbitrary<String> cut = Combinators.combine(valid, Arbitraries.doubles().between(0, 1))
                .as((s, f) -> s.substring(0, (int) (s.length() * f)));
        Arbitrary<String> nested = Combinators.combine(
                        Arbitraries.of(100, 249, 499, 501, 10_001, 100_000),
                        Arbitraries.of(
                                "{\"spec\":",
                                "[",
                                "{\"spec\":{\"template\":",
                                "[{\"op\":\"add\",\"path\":\"/x\",\"value\":"))
                .as((depth, open) -> {
                    String close = switch (open) {
                        case "[" -> "]";
                        case "{\"spec\":{\"template\":" -> "}}";
                        case "[{\"op\":\"add\",\"path\":\"/x\",\"value\":" -> "}]";
                        default -> "}";
                    };
                    return open.repeat(depth) + "{}" + close.repeat(depth);
                });
        return Arbitraries.frequencyOf(
                Tuple.of(5, trees), Tuple.of(4, operations), Tuple.of(2, cut), Tuple.of(1, nested));
    }

    private static void assertResultOrPatchException(String what, String patch, Supplier<Object> apply) {
        try {
            Object result = apply.get();
            assertThat(result).as("%s of %s", what, abbreviated(patch)).isNotNull();
        } catch (PatchException e) {
            assertThat(e.code())
                    .as("%s of %s: %s", what, abbreviated(patch), e.getMessage())
                    .isBetween(400, 599);
        } catch (RuntimeException | StackOverflowError other) {
            throw new AssertionError(what + " of " + abbreviated(patch) + " threw " + other, other);
        }
    }

    private static String abbreviated(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "... (" + s.length() + " chars)" : s;
    }

    @Property(tries = 600, seed = "18", shrinking = ShrinkingMode.OFF)
    void everyPatchGivesAResultOrAPatchException(@ForAll("patches") String patch) {
        assertResultOrPatchException("json patch", patch, () -> JsonPatch.apply(LIVE, patch));
        assertResultOrPatchException("merge patch", patch, () -> MergePatch.apply(LIVE, patch));
        assertResultOrPatchException(
                "strategic merge patch", patch, () -> StrategicMergePatch.apply(LIVE, patch, DEPLOYMENT));
        assertResultOrPatchException("server-side apply", patch, () -> {
            JsonNode config = Json.parse(patch);
            return ServerSideApply.apply(
                    LIVE, config, "fuzz", false, "apps/v1", Instant.parse("2030-01-01T00:00:00Z"), DEPLOYMENT);
        });
    }
}
