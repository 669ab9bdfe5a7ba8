package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.client.FieldValidation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldValidationCheckTest {

    private static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1", "Deployment");

    @Test
    void absentMeansWarn() {
        assertThat(FieldValidationCheck.parse(null)).isEqualTo(FieldValidation.WARN);
        assertThat(FieldValidationCheck.parse("")).isEqualTo(FieldValidation.WARN);
    }

    @Test
    void strictIsParsedCaseSensitively() {
        assertThat(FieldValidationCheck.parse("Strict")).isEqualTo(FieldValidation.STRICT);
        assertThatThrownBy(() -> FieldValidationCheck.parse("strict"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unsupported value: \"strict\"");
    }

    @Test
    void strictFailsWithTheDecodersMessage() {
        assertThat(FieldValidationCheck.check(FieldValidation.STRICT, DEPLOYMENT, List.of("spec.foo"), List.of())
                        .error())
                .contains(
                        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.foo\"");
    }

    @Test
    void strictListsDuplicatesBeforeUnknownFields() {
        assertThat(FieldValidationCheck.check(
                                FieldValidation.STRICT, DEPLOYMENT, List.of("spec.foo"), List.of("spec.replicas"))
                        .error())
                .hasValueSatisfying(
                        m -> assertThat(m)
                                .endsWith(
                                        "strict decoding error: duplicate field \"spec.replicas\", unknown field \"spec.foo\""));
    }

    @Test
    void warnSucceedsWithOneWarningPerField() {
        FieldValidationCheck.Result r =
                FieldValidationCheck.check(FieldValidation.WARN, DEPLOYMENT, List.of("spec.a", "spec.b"), List.of());
        assertThat(r.error()).isEmpty();
        assertThat(r.warnings()).containsExactly("unknown field \"spec.a\"", "unknown field \"spec.b\"");
    }

    @Test
    void warningHeaderQuotesTheTextAsGoDoes() {
        assertThat(FieldValidationCheck.warningHeader("unknown field \"spec.foo\""))
                .isEqualTo("299 - \"unknown field \\\"spec.foo\\\"\"");
    }

    @Test
    void ignoreSaysNothing() {
        FieldValidationCheck.Result r =
                FieldValidationCheck.check(FieldValidation.IGNORE, DEPLOYMENT, List.of("spec.a"), List.of("x"));
        assertThat(r.error()).isEmpty();
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void duplicateFieldsAreFoundWithTheirPaths() {
        String body = """
                {"spec":{"replicas":1,"replicas":2,"containers":[{"name":"a"},{"name":"b","name":"c"}]},"spec":{}}""";
        assertThat(FieldValidationCheck.duplicateFields(body.getBytes(StandardCharsets.UTF_8)))
                .containsExactly("spec.replicas", "spec.containers[1].name", "spec");
    }

    @Test
    void aBodyWithoutDuplicatesHasNone() {
        assertThat(FieldValidationCheck.duplicateFields(
                        "{\"a\":{\"a\":[1,{\"a\":2}]}}".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    @Test
    void malformedJsonIsRejected() {
        assertThatThrownBy(() -> FieldValidationCheck.duplicateFields("{\"a\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed JSON");
    }

    @Test
    void aDuplicate500LevelsDeepIsFoundWithItsPath() {
        String body = "{\"a\":" + "[".repeat(498) + "{\"k\":1,\"k\":2}" + "]".repeat(498) + "}";
        String expected = "a" + "[0]".repeat(498) + ".k";

        assertThat(FieldValidationCheck.duplicateFields(body.getBytes(StandardCharsets.UTF_8)))
                .containsExactly(expected);
    }

    @Test
    void nestingDeeperThan500LevelsIsMalformedNotAnotherException() {
        byte[] body = ("[".repeat(501) + "]".repeat(501)).getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> FieldValidationCheck.duplicateFields(body))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed JSON");
    }
}
