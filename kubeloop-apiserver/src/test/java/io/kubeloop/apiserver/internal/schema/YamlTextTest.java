package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;

class YamlTextTest {

    private static String yaml(String json) {
        return YamlText.of(KubeJson.mapper().readTree(json));
    }

    @Test
    void simpleWordsArePlainAndEverythingAmbiguousIsQuoted() {
        assertThat(yaml("\"merge\"")).isEqualTo("merge\n");
        assertThat(yaml("\"io.k8s.api.apps.v1.Deployment\"")).isEqualTo("io.k8s.api.apps.v1.Deployment\n");
        assertThat(yaml("\"\"")).isEqualTo("\"\"\n");
        assertThat(yaml("\"true\"")).isEqualTo("\"true\"\n");
        assertThat(yaml("\"No\"")).isEqualTo("\"No\"\n");
        assertThat(yaml("\"1.5\"")).isEqualTo("\"1.5\"\n");
        assertThat(yaml("\"a b: c\"")).isEqualTo("\"a b: c\"\n");
    }

    @Test
    void quotedStringsEscapeQuotesBackslashesAndControlCharacters() {
        assertThat(yaml("\"say \\\"hi\\\"\\\\\\n\\u0001é\"")).isEqualTo("\"say \\\"hi\\\"\\\\\\n\\u0001é\"\n");
    }

    @Test
    void scalarsKeepTheirJsonSpelling() {
        assertThat(yaml("true")).isEqualTo("true\n");
        assertThat(yaml("42")).isEqualTo("42\n");
        assertThat(yaml("null")).isEqualTo("null\n");
        assertThat(yaml("{}")).isEqualTo("{}\n");
        assertThat(yaml("[]")).isEqualTo("[]\n");
    }

    @Test
    void nestedCollectionsAreBlockStyle() {
        assertThat(yaml("""
                {"a":[{"k":"v","m":{"x":1}},["p","q"]],"b":{}}""")).isEqualTo("""
                        a:
                            - k: v
                              m:
                                  x: 1
                            - - p
                              - q
                        b: {}
                        """);
    }
}
