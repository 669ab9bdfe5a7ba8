package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;

/** Records read through the prepared constructor handle come out as Jackson would make them. */
class RecordInstantiatorsTest {

    record Port(String name, int port, Boolean open) {}

    record Spec(String image, List<Port> ports, Map<String, String> labels, long size, Spec child) {}

    record Checked(String name) {
        Checked {
            if (name != null && name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
        }
    }

    record Alternative(String value) {
        @JsonCreator
        static Alternative of(@JsonProperty("v") String v) {
            return new Alternative("from factory " + v);
        }
    }

    private record Hidden(String secret) {}

    @Test
    void aRecordWithNestedRecordsListsMapsAndAbsentComponentsIsReadComplete() {
        Spec spec = KubeJson.mapper().readValue("""
                        {"image":"nginx","ports":[{"name":"http","port":80}],"labels":{"a":"b"},"size":7,
                         "child":{"image":"sidecar"}}""", Spec.class);

        assertThat(spec)
                .isEqualTo(new Spec(
                        "nginx",
                        List.of(new Port("http", 80, null)),
                        Map.of("a", "b"),
                        7,
                        new Spec("sidecar", null, null, 0, null)));
    }

    @Test
    void aConstructorsExceptionIsReportedAsJacksonReportsIt() {
        assertThatThrownBy(() -> KubeJson.mapper().readValue("{\"name\":\" \"}", Checked.class))
                .isInstanceOf(DatabindException.class)
                .hasMessageContaining("name must not be blank");
    }

    @Test
    void aFactoryCreatorAndAPrivateRecordStillWork() {
        assertThat(KubeJson.mapper()
                        .readValue("{\"v\":\"x\"}", Alternative.class)
                        .value())
                .isEqualTo("from factory x");
        assertThat(KubeJson.mapper()
                        .readValue("{\"secret\":\"s\"}", Hidden.class)
                        .secret())
                .isEqualTo("s");
    }
}
