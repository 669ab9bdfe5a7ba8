package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

class CompactDynamicObjectTest {

    /** Escapes, unicode (BMP and astral, raw and escaped), nested objects and arrays, numbers of every kind. */
    private static final String POD =
            "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p-\\u00e9\\\"q\","
                    + "\"namespace\":\"ns\",\"uid\":\"u-1\",\"resourceVersion\":\"42\",\"labels\":{\"app\":\"web\",\"t\":\"é😀\"},"
                    + "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\".\":{}}}}}]},"
                    + "\"spec\":{\"containers\":[{\"name\":\"c\",\"args\":[\"a\\\\b\",\"}{][\",\"\\n\"]}],\"n\":-1.5e3,\"big\":12345678901234567890,"
                    + "\"ok\":true,\"none\":null}}";

    private static DynamicObject compact(String json) {
        return DynamicObject.fromJson(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void compactObjectKeepsTheExactBytesAndReadsIdentityEagerly() {
        DynamicObject d = compact(POD);

        assertThat(d.isCompact()).isTrue();
        assertThat(d.toJson()).isEqualTo(POD);
        assertThat(d.toJsonBytes()).isEqualTo(POD.getBytes(StandardCharsets.UTF_8));
        assertThat(d.apiVersion()).isEqualTo("v1");
        assertThat(d.kind()).isEqualTo("Pod");
        assertThat(d.key()).isEqualTo(ObjectKey.of("ns", "p-é\"q"));
        assertThat(ObjectAccess.resourceVersion(d)).isEqualTo("42");
        assertThat(ObjectAccess.uid(d)).isEqualTo("u-1");
        assertThat(ObjectAccess.labels(d)).isEqualTo(Map.of("app", "web", "t", "é😀"));
        assertThat(d.metadata().managedFields()).hasSize(1);
        assertThat(d.at("/spec/containers/0/args/1").orElseThrow().asString()).isEqualTo("}{][");
        assertThat(d.at("/spec/none")).isEmpty();
    }

    @Test
    void bothFormsAreEqualWithEqualHashesAndAnswerAlike() {
        DynamicObject compact = compact(POD);
        DynamicObject tree = DynamicObject.parse(POD);

        assertThat(tree.isCompact()).isFalse();
        assertThat(compact).isEqualTo(tree).hasSameHashCodeAs(tree);
        assertThat(tree).isEqualTo(compact);
        assertThat(compact.node()).isEqualTo(tree.node());
        assertThat(compact.metadata()).isEqualTo(tree.metadata());
        assertThat(compact.key()).isEqualTo(tree.key());
        assertThat(ObjectAccess.resourceVersion(compact)).isEqualTo(ObjectAccess.resourceVersion(tree));
        assertThat(compact.toString()).isEqualTo(tree.toString());
        assertThat(tree.compact()).isEqualTo(tree);
        assertThat(tree.compact().isCompact()).isTrue();
    }

    @Test
    void equalityIgnoresFieldOrderAndSeesEveryDifference() {
        DynamicObject a = compact("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"x\":1,\"y\":2}}");
        DynamicObject reordered =
                compact("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"y\":2,\"x\":1},\"kind\":\"Pod\"}");
        DynamicObject otherSpec =
                compact("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"x\":1,\"y\":3}}");

        assertThat(a).isEqualTo(reordered).hasSameHashCodeAs(reordered);
        assertThat(a).isNotEqualTo(otherSpec);
        assertThat(a)
                .isNotEqualTo(compact("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\"},\"spec\":{\"x\":1,\"y\":2}}"));
    }

    @Test
    void nodeOfACompactObjectIsDetached() {
        DynamicObject d = compact(POD);

        d.node().put("kind", "Changed");
        d.node().withObjectProperty("metadata").put("name", "changed");

        assertThat(d.kind()).isEqualTo("Pod");
        assertThat(d.node().path("kind").asString()).isEqualTo("Pod");
        assertThat(d.toJson()).isEqualTo(POD);
    }

    @Test
    void editOfACompactObjectLeavesItUnchanged() {
        DynamicObject d = compact(POD);

        DynamicObject changed = d.edit(n -> n.withObjectProperty("metadata").put("resourceVersion", "43"));

        assertThat(ObjectAccess.resourceVersion(changed)).isEqualTo("43");
        assertThat(ObjectAccess.resourceVersion(d)).isEqualTo("42");
        assertThat(d.toJson()).isEqualTo(POD);
        assertThat(changed.compact().toJson()).contains("\"resourceVersion\":\"43\"");
    }

    @Test
    void jacksonWritesACompactObjectAsItsJsonAndReadsItBack() {
        record Holder(List<DynamicObject> items) {}
        DynamicObject d = compact(POD);

        String written = KubeJson.mapper().writeValueAsString(new Holder(List.of(d)));
        Holder back = KubeJson.mapper().readValue(written, Holder.class);

        assertThat(written).isEqualTo("{\"items\":[" + POD + "]}");
        assertThat(back.items()).containsExactly(d);
        assertThat((Object) KubeJson.mapper().valueToTree(d)).isEqualTo(d.node());
        assertThat(d.to(Map.class)).containsKey("spec");
    }

    @Test
    void objectWithoutMetadataHasEmptyIdentity() {
        DynamicObject d = compact("{\"kind\":\"Status\"}");

        assertThat(ObjectAccess.name(d)).isNull();
        assertThat(ObjectAccess.namespace(d)).isEmpty();
        assertThat(d.metadata()).isEqualTo(ObjectMeta.builder().build());
    }

    @Test
    void fromJsonRejectsWhatIsNotOneObject() {
        assertThatThrownBy(() -> compact("[1]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> compact("{\"a\":1} {}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> compact("{\"a\":"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed JSON object");
    }

    @Test
    void readerCopiesTheObjectSpanOutOfALargerBufferAndSharesRepeatedStrings() {
        String a = "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"a\"}}";
        String b = "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"b\"}}";
        byte[] input = ("xx[" + a + " , " + b + "]").getBytes(StandardCharsets.UTF_8);
        DynamicObjectReader reader = new DynamicObjectReader();
        DynamicObject first;
        DynamicObject second;
        try (JsonParser p = KubeJson.mapper().createParser(input, 2, input.length - 2)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            p.nextToken();
            first = reader.read(p, input, -2);
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            p.nextToken();
            second = reader.read(p, input, -2);
        }

        assertThat(first.toJson()).isEqualTo(a);
        assertThat(second.toJson()).isEqualTo(b);
        assertThat(ObjectAccess.namespace(first)).isSameAs(ObjectAccess.namespace(second));
        assertThat(first.kind()).isSameAs(second.kind());
    }

    @Test
    void readerAddsMissingKindAndApiVersionOnlyWhenAbsent() {
        DynamicObjectReader reader = new DynamicObjectReader();

        DynamicObject bare = read(reader, "{ \"metadata\":{\"name\":\"a\"}}", "v1", "Pod");
        DynamicObject empty = read(reader, "{}", "v1", "Pod");
        DynamicObject typed = read(reader, "{\"kind\":\"Other\",\"metadata\":{\"name\":\"a\"}}", "v1", "Pod");

        assertThat(bare.toJson()).isEqualTo("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}");
        assertThat(bare.kind()).isEqualTo("Pod");
        assertThat(bare.apiVersion()).isEqualTo("v1");
        assertThat(empty.toJson()).isEqualTo("{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}");
        assertThat(typed.toJson())
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Other\",\"metadata\":{\"name\":\"a\"}}");
        assertThat(typed.kind()).isEqualTo("Other");
    }

    @Test
    void readerRejectsAParserNotAtAnObject() {
        byte[] input = "[1]".getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = KubeJson.mapper().createParser(input)) {
            p.nextToken();
            assertThatThrownBy(() -> new DynamicObjectReader().read(p, input, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("START_ARRAY");
        }
    }

    private static DynamicObject read(DynamicObjectReader reader, String json, String apiVersion, String kind) {
        byte[] input = json.getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = KubeJson.mapper().createParser(input)) {
            p.nextToken();
            return reader.read(p, input, 0, apiVersion, kind);
        }
    }
}
