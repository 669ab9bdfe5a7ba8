package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The scanner path of {@link DynamicObjectReader} against its Jackson path. */
class ScannedDynamicObjectTest {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** What the Jackson streaming path reads, and where it leaves the object. */
    private record Read(DynamicObject object, int end) {}

    private static Read viaJackson(byte[] b, int start) {
        try (JsonParser p = KubeJson.mapper().createParser(b, start, b.length - start)) {
            p.nextToken();
            DynamicObject d = new DynamicObjectReader().read(p, b, -start);
            return new Read(d, start + (int) p.currentLocation().getByteOffset());
        }
    }

    private static Read viaScanner(byte[] b, int start) {
        int end = JsonScanner.valueEnd(b, start, b.length);
        return new Read(new DynamicObjectReader().read(b, start, end, null, null), end);
    }

    private static String identity(DynamicObject d) {
        return String.join(
                "|",
                String.valueOf(d.apiVersion()),
                String.valueOf(d.kind()),
                String.valueOf(ObjectAccess.namespace(d)),
                String.valueOf(ObjectAccess.name(d)),
                String.valueOf(ObjectAccess.resourceVersion(d)),
                String.valueOf(ObjectAccess.uid(d)));
    }

    @Property(tries = 300)
    void scannerAgreesWithJacksonOnEndAndIdentity(@ForAll("objects") ObjectNode object, @ForAll boolean pretty) {
        String text = pretty ? object.toPrettyString() : KubeJson.mapper().writeValueAsString(object);
        byte[] b = ("  " + text + " ,[1]").getBytes(StandardCharsets.UTF_8);

        Read jackson = viaJackson(b, 2);
        Read scanned = viaScanner(b, 2);

        assertThat(scanned.end()).isEqualTo(jackson.end());
        assertThat(identity(scanned.object())).isEqualTo(identity(jackson.object()));
        assertThat(scanned.object().toJsonBytes()).isEqualTo(jackson.object().toJsonBytes());
    }

    @Provide
    Arbitrary<ObjectNode> objects() {
        Arbitrary<String> strings =
                Arbitraries.strings().withChars("aZ09 \"\\/{}[]:,\n\té😀\u0001").ofMaxLength(8);
        Arbitrary<JsonNode> identityValue = Arbitraries.oneOf(
                strings.map(F::stringNode),
                Arbitraries.integers().map(F::numberNode),
                Arbitraries.just(F.nullNode()),
                Arbitraries.just(F.booleanNode(true)),
                Arbitraries.just(F.objectNode()));
        Arbitrary<JsonNode> any = value(strings, 3);
        Arbitrary<ObjectNode> metadata = Arbitraries.subsetOf("namespace", "name", "resourceVersion", "uid", "labels")
                .flatMap(names -> Arbitraries.shuffle(List.copyOf(names)))
                .flatMap(names -> identityValue
                        .list()
                        .ofSize(names.size())
                        .flatMap(values -> any.map(extra -> {
                            ObjectNode m = F.objectNode();
                            for (int k = 0; k < names.size(); k++) {
                                m.set(names.get(k), names.get(k).equals("labels") ? extra : values.get(k));
                            }
                            return m;
                        })));
        return Arbitraries.subsetOf("apiVersion", "kind", "metadata", "spec", "status")
                .flatMap(names -> Arbitraries.shuffle(List.copyOf(names)))
                .flatMap(names -> Arbitraries.oneOf(metadata.map(m -> (JsonNode) m), identityValue)
                        .flatMap(meta -> identityValue
                                .list()
                                .ofSize(2)
                                .flatMap(typeValues -> any.list().ofSize(2).map(rest -> {
                                    ObjectNode o = F.objectNode();
                                    for (String n : names) {
                                        switch (n) {
                                            case "apiVersion" -> o.set(n, typeValues.get(0));
                                            case "kind" -> o.set(n, typeValues.get(1));
                                            case "metadata" -> o.set(n, meta);
                                            case "spec" -> o.set(n, rest.get(0));
                                            default -> o.set(n, rest.get(1));
                                        }
                                    }
                                    return o;
                                }))));
    }

    private static Arbitrary<JsonNode> value(Arbitrary<String> strings, int depth) {
        Arbitrary<JsonNode> scalar = Arbitraries.oneOf(
                strings.map(F::stringNode),
                Arbitraries.longs().map(F::numberNode),
                Arbitraries.doubles().map(F::numberNode),
                Arbitraries.just(F.nullNode()),
                Arbitraries.of(true, false).map(F::booleanNode));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<JsonNode> inner = Arbitraries.lazy(() -> value(strings, depth - 1));
        Arbitrary<JsonNode> array = inner.list().ofMaxSize(3).map(l -> {
            var a = F.arrayNode();
            l.forEach(a::add);
            return a;
        });
        Arbitrary<JsonNode> object = Arbitraries.maps(strings, inner)
                .ofMaxSize(3)
                .map(m -> {
                    ObjectNode o = F.objectNode();
                    m.forEach(o::set);
                    return o;
                });
        return Arbitraries.frequencyOf(Tuple.of(3, scalar), Tuple.of(1, array), Tuple.of(1, object));
    }

    @Test
    void escapedIdentityStringsAreDecoded() {
        byte[] b = "{\"kind\":\"P\\u006fd\",\"metadata\":{\"name\":\"a\\\"b\\\\\",\"namespace\":\"n\\/s\",\"uid\":7}}"
                .getBytes(StandardCharsets.UTF_8);
        DynamicObject d = new DynamicObjectReader().read(b, 0, b.length, null, null);

        assertThat(identity(d)).isEqualTo("null|Pod|n/s|a\"b\\|null|7");
    }

    @Test
    void anEscapedMemberNameIsStillFound() {
        byte[] b = "{\"k\\u0069nd\":\"Pod\",\"metadata\":{\"n\\u0061me\":\"x\"}}".getBytes(StandardCharsets.UTF_8);
        DynamicObject d = new DynamicObjectReader().read(b, 0, b.length, null, null);

        assertThat(d.kind()).isEqualTo("Pod");
        assertThat(ObjectAccess.name(d)).isEqualTo("x");
    }

    @Test
    void malformedJsonFailsAsTheJacksonPathFails() {
        byte[] b = "{\"kind\":\"Pod\",\"spec\":{\"a\":[1,]}}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> new DynamicObjectReader().read(b, 0, b.length, null, null))
                .isInstanceOf(JacksonException.class);
    }

    @Test
    void defaultsAreAddedToItemsWithoutTypeFields() {
        byte[] b = "{ \"metadata\":{\"name\":\"x\"}}".getBytes(StandardCharsets.UTF_8);
        DynamicObject d = new DynamicObjectReader().read(b, 0, b.length, "v1", "Pod");

        assertThat(d.toJson()).isEqualTo("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}");
        assertThat(d.kind()).isEqualTo("Pod");
        try (JsonParser p = KubeJson.mapper().createParser(b)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(new DynamicObjectReader().read(p, b, 0, "v1", "Pod").toJson())
                    .isEqualTo(d.toJson());
        }
    }
}
