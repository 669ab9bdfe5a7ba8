package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class PruneAndDefaultTest {

    private static final StructuralSchema SCHEMA =
            StructuralSchema.of(KubeJson.mapper().readTree("""
            {"type":"object","properties":{
              "spec":{"type":"object","properties":{
                "replicas":{"type":"integer","default":1},
                "strategy":{"type":"object","default":{},"properties":{"kind":{"type":"string","default":"Roll"}}},
                "note":{"type":"string"},
                "opt":{"type":"string","nullable":true},
                "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
                  "properties":{"typed":{"type":"object","properties":{"a":{"type":"string"}}}}},
                "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
                "labels":{"type":"object","additionalProperties":{"type":"string"}},
                "template":{"type":"object","x-kubernetes-embedded-resource":true,
                  "properties":{"spec":{"type":"object","properties":{"x":{"type":"string"}}}}}}}}}"""));

    private static ObjectNode obj(String json) {
        return (ObjectNode) KubeJson.mapper().readTree(json);
    }

    @Test
    void pruningRemovesUnknownFieldsAndReportsTheirPathsSorted() {
        ObjectNode o = obj("""
                {"apiVersion":"x.io/v1","kind":"Foo","metadata":{"name":"f"},"zzz":1,
                 "spec":{"note":"n","foo":1,"items":[{"name":"a","bar":2}]}}""");
        assertThat(SCHEMA.prune(o)).containsExactly("spec.foo", "spec.items[0].bar", "zzz");
        assertThat(o.toString())
                .isEqualTo("{\"apiVersion\":\"x.io/v1\",\"kind\":\"Foo\",\"metadata\":{\"name\":\"f\"},"
                        + "\"spec\":{\"note\":\"n\",\"items\":[{\"name\":\"a\"}]}}");
    }

    @Test
    void pruningKeepsEverythingUnderPreserveUnknownFieldsButPrunesItsTypedChildren() {
        ObjectNode o = obj("{\"spec\":{\"raw\":{\"free\":{\"deep\":1},\"typed\":{\"a\":\"x\",\"b\":1}}}}");
        assertThat(SCHEMA.prune(o)).containsExactly("spec.raw.typed.b");
        assertThat(o.at("/spec/raw/free/deep").intValue()).isEqualTo(1);
    }

    @Test
    void pruningKeepsMapEntries() {
        ObjectNode o = obj("{\"spec\":{\"labels\":{\"any\":\"thing\"}}}");
        assertThat(SCHEMA.prune(o)).isEmpty();
    }

    @Test
    void embeddedResourcesKeepTheirTypeMetaAndPruneTheirMetadata() {
        ObjectNode o = obj("""
                {"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","nope":1},
                  "spec":{"x":"y","z":1}}}}""");
        assertThat(SCHEMA.prune(o)).containsExactly("spec.template.metadata.nope", "spec.template.spec.z");
        assertThat(o.at("/spec/template/kind").stringValue()).isEqualTo("Pod");
    }

    @Test
    void apiVersionBelowTheRootIsAnUnknownField() {
        ObjectNode o = obj("{\"spec\":{\"apiVersion\":\"v1\"}}");
        assertThat(SCHEMA.prune(o)).containsExactly("spec.apiVersion");
    }

    @Test
    void defaultsFillAbsentFieldsAndDescendIntoDefaultedObjects() {
        ObjectNode o = obj("{\"spec\":{}}");
        SCHEMA.applyDefaults(o);
        assertThat(o.toString()).isEqualTo("{\"spec\":{\"replicas\":1,\"strategy\":{\"kind\":\"Roll\"}}}");
    }

    @Test
    void defaultsDoNotOverwriteValues() {
        ObjectNode o = obj("{\"spec\":{\"replicas\":3}}");
        SCHEMA.applyDefaults(o);
        assertThat(o.at("/spec/replicas").intValue()).isEqualTo(3);
    }

    @Test
    void defaultsReplaceNonNullableNulls() {
        ObjectNode o = obj("{\"spec\":{\"replicas\":null}}");
        SCHEMA.applyDefaults(o);
        assertThat(o.at("/spec/replicas").intValue()).isEqualTo(1);
    }

    @Test
    void nonNullableNullsWithoutDefaultAreDropped() {
        ObjectNode o = obj("{\"spec\":{\"note\":null,\"opt\":null}}");
        SCHEMA.dropNonNullableNulls(o);
        assertThat(o.toString()).isEqualTo("{\"spec\":{\"opt\":null}}");
    }

    @Test
    void admitPrunesDefaultsAndValidatesInOrder() {
        ObjectNode o = obj("{\"spec\":{\"foo\":1,\"note\":null,\"replicas\":\"x\"}}");
        Admission a = SCHEMA.admit(o);
        assertThat(a.unknownFields()).containsExactly("spec.foo");
        assertThat(a.causes()).extracting(c -> c.field()).containsExactly("spec.replicas");
        assertThat(o.at("/spec/strategy/kind").stringValue()).isEqualTo("Roll");
    }
}
