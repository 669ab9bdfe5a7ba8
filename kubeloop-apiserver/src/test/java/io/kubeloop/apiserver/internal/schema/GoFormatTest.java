package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;

class GoFormatTest {

    @Test
    void floatsPrintLikeGosPercentV() {
        assertThat(GoFormat.floatV(1.5)).isEqualTo("1.5");
        assertThat(GoFormat.floatV(10)).isEqualTo("10");
        assertThat(GoFormat.floatV(123456)).isEqualTo("123456");
        assertThat(GoFormat.floatV(1e6)).isEqualTo("1e+06");
        assertThat(GoFormat.floatV(1234567)).isEqualTo("1.234567e+06");
        assertThat(GoFormat.floatV(0.0001)).isEqualTo("0.0001");
        assertThat(GoFormat.floatV(0.00001)).isEqualTo("1e-05");
    }

    @Test
    void stringsAreQuotedLikeStrconvQuote() {
        assertThat(GoFormat.quote("a\"b\\c\nd\u0001é")).isEqualTo("\"a\\\"b\\\\c\\nd\\x01é\"");
    }

    @Test
    void objectsRenderAsSortedHtmlEscapedJson() {
        assertThat(GoFormat.badValue(KubeJson.mapper().readTree("{\"b\":\"<x>\",\"a\":[1,2.5]}")))
                .isEqualTo("{\"a\":[1,2.5],\"b\":\"\\u003cx\\u003e\"}");
    }

    @Test
    void nullRendersAsTheQuotedWordNull() {
        assertThat(GoFormat.badValue(null)).isEqualTo("\"null\"");
    }
}
