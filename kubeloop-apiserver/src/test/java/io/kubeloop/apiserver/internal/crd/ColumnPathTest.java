package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ColumnPathTest {

    private static final JsonNode OBJ = KubeJson.mapper().readTree("""
            {"metadata":{"name":"n","annotations":{"a.b/c":"x"}},
             "spec":{"replicas":3,"ports":[{"port":80},{"port":443}]},
             "status":{"conditions":[{"type":"Synced","status":"False"},{"type":"Ready","status":"True"}]}}
            """);

    private static JsonNode eval(String path) {
        return ColumnPath.parse(path).first(OBJ);
    }

    @Test
    void fieldsIndexesAndQuotedKeysResolve() {
        assertThat(eval(".spec.replicas").asInt()).isEqualTo(3);
        assertThat(eval(".spec.ports[1].port").asInt()).isEqualTo(443);
        assertThat(eval(".spec.ports[-1].port").asInt()).isEqualTo(443);
        assertThat(eval(".metadata.annotations['a.b/c']").asString()).isEqualTo("x");
        assertThat(eval("{$.metadata.name}").asString()).isEqualTo("n");
    }

    @Test
    void filtersAndWildcardsYieldTheFirstMatch() {
        assertThat(eval(".status.conditions[?(@.type==\"Ready\")].status").asString())
                .isEqualTo("True");
        assertThat(eval(".status.conditions[?(@.type!='Ready')].type").asString())
                .isEqualTo("Synced");
        assertThat(eval(".spec.ports[*].port").asInt()).isEqualTo(80);
    }

    @Test
    void missingValuesAreNull() {
        assertThat(eval(".spec.nothing.deeper")).isNull();
        assertThat(eval(".spec.ports[5].port")).isNull();
        assertThat(eval(".status.conditions[?(@.type==\"Gone\")].status")).isNull();
    }

    @Test
    void malformedPathsAreRejectedWithTheProblem() {
        assertThatThrownBy(() -> ColumnPath.parse("spec.replicas")).hasMessageContaining("must start with '.'");
        assertThatThrownBy(() -> ColumnPath.parse(".spec[0")).hasMessageContaining("unclosed '['");
        assertThatThrownBy(() -> ColumnPath.parse(".spec[abc]")).hasMessageContaining("unsupported index");
    }
}
