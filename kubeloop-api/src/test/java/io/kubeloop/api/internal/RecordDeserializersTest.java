package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain records take the direct path and come out exactly as Jackson's own deserializer makes them; records
 * the direct path does not reproduce keep Jackson's.
 */
class RecordDeserializersTest {

    /** Jackson without kubeloop's module, configured as KubeJson is otherwise: the reference. */
    private static final JsonMapper JACKSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    record Health(String status, String message) {}

    record Resource(
            String kind,
            @JsonProperty("ns") String namespace,
            @JsonAlias("title") String name,
            int wave,
            boolean hook,
            Long generation,
            Health health,
            List<String> images,
            Map<String, String> labels,
            @JsonSetter(nulls = Nulls.AS_EMPTY) List<String> finalizers,
            Instant at) {}

    record WithUnknown(String name, @JsonAnySetter Map<String, Object> unknown) {}

    private static ValueDeserializer<Object> deserializerOf(Class<?> type) {
        return KubeJson.mapper()
                ._deserializationContext()
                .findRootValueDeserializer(KubeJson.mapper().constructType(type));
    }

    @Test
    void aPlainRecordIsReadDirectly() {
        assertThat(RecordDeserializers.readsDirectly(deserializerOf(Resource.class)))
                .isTrue();
        assertThat(RecordDeserializers.readsDirectly(deserializerOf(Health.class)))
                .isTrue();
    }

    @Test
    void aRecordWithAnAnySetterKeepsJacksonsPath() {
        assertThat(RecordDeserializers.readsDirectly(deserializerOf(WithUnknown.class)))
                .isFalse();
        WithUnknown read = KubeJson.mapper().readValue("{\"name\":\"a\",\"extra\":1}", WithUnknown.class);
        assertThat(read).isEqualTo(JACKSON.readValue("{\"name\":\"a\",\"extra\":1}", WithUnknown.class));
    }

    @Test
    void renamedAliasedAbsentNullAndUnknownPropertiesComeOutAsJacksonMakesThem() {
        for (String json : List.of(
                """
                {"kind":"Deployment","ns":"shop","title":"web","wave":2,"hook":true,"generation":7,
                 "health":{"status":"Healthy","extra":{"deep":[1,2]}},"images":["a","b"],"labels":{"x":"y"},
                 "finalizers":["f"],"at":"2025-03-01T08:00:00Z","unknown":[{"a":null}]}""",
                "{}",
                "{\"name\":\"n\",\"wave\":null,\"finalizers\":null,\"health\":null,\"images\":null}",
                "{\"kind\":\"A\",\"kind\":\"B\"}")) {
            assertThat(KubeJson.mapper().readValue(json, Resource.class))
                    .as(json)
                    .isEqualTo(JACKSON.readValue(json, Resource.class));
        }
    }

    @Test
    void aBadValueIsReportedWithItsPathAsJacksonReportsIt() {
        String json = "{\"health\":{\"status\":[1]}}";

        assertThatThrownBy(() -> KubeJson.mapper().readValue(json, Resource.class))
                .isInstanceOf(DatabindException.class)
                .hasMessageContaining("Resource[\"health\"]->")
                .hasMessageContaining("[\"status\"]");
    }

    @Test
    void aReadThatFailsOnUnknownOrMissingPropertiesGetsJacksonsChecks() {
        assertThatThrownBy(() -> KubeJson.mapper()
                        .readerFor(Health.class)
                        .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .readValue("{\"status\":\"ok\",\"other\":1}"))
                .isInstanceOf(DatabindException.class)
                .hasMessageContaining("other");
        assertThatThrownBy(() -> KubeJson.mapper()
                        .readerFor(Health.class)
                        .with(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                        .readValue("{\"status\":\"ok\"}"))
                .isInstanceOf(DatabindException.class)
                .hasMessageContaining("message");
    }
}
