package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonFormat;
import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The fast path for Kubernetes timestamps reads exactly what Jackson's Instant deserializer reads. */
class TimestampDeserializerTest {

    /** Jackson as configured by KubeJson, but without kubeloop's module: the reference. */
    private static final JsonMapper PLAIN = JsonMapper.builder().build();

    record Stamped(Instant at) {}

    record Formatted(
            @JsonFormat(shape = JsonFormat.Shape.NUMBER) Instant at) {}

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2024-01-02T03:04:05Z",
                "1970-01-01T00:00:00Z",
                "2024-02-29T23:59:59Z",
                "2024-01-02T03:04:05.1Z",
                "2024-01-02T03:04:05.123456Z",
                "2024-01-02T03:04:05.123456789Z",
                "0001-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z",
                "2024-01-02T03:04:05+02:00",
                "2024-01-02T03:04:05.5-07:30"
            })
    void readsEveryTimestampAsJacksonDoes(String text) {
        String json = "{\"at\":\"" + text + "\"}";

        Instant ours = KubeJson.mapper().readValue(json, Stamped.class).at();

        assertThat(ours).isEqualTo(PLAIN.readValue(json, Stamped.class).at());
    }

    @Test
    void theFastPathAgreesWithInstantParseAndLeavesOtherFormsToJackson() {
        assertThat(TimestampDeserializer.parse("2025-03-01T08:00:00.25Z"))
                .isEqualTo(Instant.parse("2025-03-01T08:00:00.25Z"));
        assertThat(TimestampDeserializer.parse("2024-01-02T03:04:05+02:00")).isNull();
        assertThat(TimestampDeserializer.parse("2024-01-02t03:04:05z")).isNull();
        assertThat(TimestampDeserializer.parse("2024-01-02T03:04:05.Z")).isNull();
        assertThat(TimestampDeserializer.parse("2024-01-02T03:04:05.1234567890Z"))
                .isNull();
    }

    @Test
    void theByteFormReadsOnlyItsRangeOfALargerBuffer() {
        byte[] json = "{\"at\":\"2025-03-01T08:00:00.25Z\",\"b\":\"2024-01-02T03:04:05Z\"}"
                .getBytes(StandardCharsets.US_ASCII);
        assertThat(TimestampDeserializer.parse(json, 7, 30)).isEqualTo(Instant.parse("2025-03-01T08:00:00.25Z"));
        assertThat(TimestampDeserializer.parse(json, 37, 57)).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(TimestampDeserializer.parse(json, 7, 29))
                .as("cut before its Z")
                .isNull();
        assertThat(TimestampDeserializer.parse(json, 6, 30)).as("with a quote").isNull();
    }

    @Test
    void charactersOutsideLatin1AreNotDigits() {
        assertThat(TimestampDeserializer.parse("2024-01-02T03:04:0\uD83D\uDE00Z"))
                .isNull();
        assertThat(TimestampDeserializer.parse("2024-01-02T03:04:05.\u0661Z")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-02-30T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T25:00:00Z", "yesterday"})
    void badTimestampsFailAsJacksonFailsThem(String text) {
        String json = "{\"at\":\"" + text + "\"}";

        assertThatThrownBy(() -> KubeJson.mapper().readValue(json, Stamped.class))
                .isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> PLAIN.readValue(json, Stamped.class)).isInstanceOf(JacksonException.class);
    }

    @Test
    void theEndOfDayFormThatJacksonAcceptsIsLeftToJackson() {
        String json = "{\"at\":\"2024-01-01T24:00:00Z\"}";

        assertThat(TimestampDeserializer.parse("2024-01-01T24:00:00Z")).isNull();
        assertThat(KubeJson.mapper().readValue(json, Stamped.class).at())
                .isEqualTo(PLAIN.readValue(json, Stamped.class).at());
    }

    @Test
    void numbersAndAPropertysOwnFormatStayJacksons() {
        assertThat(KubeJson.mapper()
                        .readValue("{\"at\":1700000000}", Stamped.class)
                        .at())
                .isEqualTo(PLAIN.readValue("{\"at\":1700000000}", Stamped.class).at());
        assertThat(KubeJson.mapper()
                        .readValue("{\"at\":1700000000}", Formatted.class)
                        .at())
                .isEqualTo(Instant.ofEpochSecond(1_700_000_000));
    }
}
