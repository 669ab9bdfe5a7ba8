package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaValidationTest {

    private static final StructuralSchema SCHEMA =
            StructuralSchema.of(KubeJson.mapper().readTree("""
            {"type":"object","properties":{
              "spec":{"type":"object","required":["image"],"properties":{
                "image":{"type":"string","minLength":2,"maxLength":10,"pattern":"^[a-z]+$"},
                "replicas":{"type":"integer","minimum":1,"maximum":5},
                "ratio":{"type":"number","exclusiveMaximum":true,"maximum":1.5},
                "mode":{"type":"string","enum":["Fast","Slow"]},
                "level":{"type":"integer","enum":[1,2]},
                "port":{"x-kubernetes-int-or-string":true},
                "note":{"type":"string","nullable":true},
                "when":{"type":"string","format":"date-time"},
                "tags":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string"}},
                "labels":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string"}},
                "containers":{"type":"array","items":{"type":"object","required":["name"],
                  "properties":{"name":{"type":"string"}}}}}}}}"""));

    private static List<Status.Cause> validate(String spec) {
        return SCHEMA.validate(KubeJson.mapper().readTree("{\"spec\":" + spec + "}"));
    }

    @Test
    void aValidObjectHasNoCauses() {
        assertThat(validate("""
                {"image":"nginx","replicas":3,"ratio":1.2,"mode":"Fast","level":2,"port":"http","note":null,
                 "when":"2024-01-02T03:04:05Z","tags":["a"],"labels":{"a":"b"},"containers":[{"name":"c"}]}""")).isEmpty();
    }

    @Test
    void aWrongTypeIsFieldValueTypeInvalidWithKubeOpenApisWording() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":\"string\"}"))
                .containsExactly(new Status.Cause(
                        "FieldValueTypeInvalid",
                        "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
                        "spec.replicas"));
    }

    @Test
    void aMissingRequiredFieldIsFieldValueRequired() {
        assertThat(validate("{}"))
                .containsExactly(new Status.Cause("FieldValueRequired", "Required value", "spec.image"));
    }

    @Test
    void aValueOutsideTheEnumIsNotSupported() {
        assertThat(validate("{\"image\":\"nginx\",\"mode\":\"Medium\"}"))
                .containsExactly(new Status.Cause(
                        "FieldValueNotSupported",
                        "Unsupported value: \"Medium\": supported values: \"Fast\", \"Slow\"",
                        "spec.mode"));
    }

    @Test
    void nonStringEnumValuesAreListedAsJson() {
        assertThat(validate("{\"image\":\"nginx\",\"level\":3}"))
                .extracting(Status.Cause::message)
                .containsExactly("Unsupported value: 3: supported values: \"1\", \"2\"");
    }

    @Test
    void belowTheMinimumIsInvalid() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":0}"))
                .containsExactly(new Status.Cause(
                        "FieldValueInvalid",
                        "Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
                        "spec.replicas"));
    }

    @Test
    void aboveTheMaximumIsInvalid() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":6}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: 6: spec.replicas in body should be less than or equal to 5");
    }

    @Test
    void anExclusiveMaximumExcludesItsBound() {
        assertThat(validate("{\"image\":\"nginx\",\"ratio\":1.5}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: 1.5: spec.ratio in body should be less than 1.5");
    }

    @Test
    void anIntegralFloatIsAnInteger() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":2.0}")).isEmpty();
    }

    @Test
    void aFractionIsNotAnInteger() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":2.5}"))
                .extracting(Status.Cause::message)
                .containsExactly(
                        "Invalid value: \"number\": spec.replicas in body must be of type integer: \"number\"");
    }

    @Test
    void tooShortIsInvalidAndTooLongIsTooLong() {
        assertThat(validate("{\"image\":\"a\"}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: \"a\": spec.image in body should be at least 2 chars long");
        assertThat(validate("{\"image\":\"abcdefghijk\"}"))
                .containsExactly(
                        new Status.Cause("FieldValueTooLong", "Too long: may not be more than 10 bytes", "spec.image"));
    }

    @Test
    void aPatternMismatchIsInvalid() {
        assertThat(validate("{\"image\":\"Nginx\"}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: \"Nginx\": spec.image in body should match '^[a-z]+$'");
    }

    @Test
    void intOrStringRejectsBooleans() {
        assertThat(validate("{\"image\":\"nginx\",\"port\":true}"))
                .extracting(Status.Cause::message)
                .containsExactly(
                        "Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"");
    }

    @Test
    void intOrStringAcceptsIntegers() {
        assertThat(validate("{\"image\":\"nginx\",\"port\":8080}")).isEmpty();
    }

    @Test
    void nullIsATypeErrorUnlessNullable() {
        assertThat(validate("{\"image\":\"nginx\",\"replicas\":null}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: \"null\": spec.replicas in body must be of type integer: \"null\"");
    }

    @Test
    void tooFewItemsIsInvalidAndTooManyIsTooMany() {
        assertThat(validate("{\"image\":\"nginx\",\"tags\":[]}"))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: 0: spec.tags in body should have at least 1 items");
        assertThat(validate("{\"image\":\"nginx\",\"tags\":[\"a\",\"b\",\"c\"]}"))
                .containsExactly(
                        new Status.Cause("FieldValueTooMany", "Too many: 3: must have at most 2 items", "spec.tags"));
    }

    @Test
    void arrayItemsAreValidatedWithIndexedPaths() {
        assertThat(validate("{\"image\":\"nginx\",\"containers\":[{\"name\":\"a\"},{}]}"))
                .containsExactly(new Status.Cause("FieldValueRequired", "Required value", "spec.containers[1].name"));
    }

    @Test
    void mapValuesAreValidatedUnderTheirKeys() {
        assertThat(validate("{\"image\":\"nginx\",\"labels\":{\"a\":1}}"))
                .extracting(Status.Cause::field)
                .containsExactly("spec.labels.a");
    }

    @Test
    void tooManyPropertiesIsTooMany() {
        assertThat(validate("{\"image\":\"nginx\",\"labels\":{\"a\":\"1\",\"b\":\"2\"}}"))
                .extracting(Status.Cause::reason)
                .containsExactly("FieldValueTooMany");
    }

    @Test
    void aMalformedDateTimeIsTypeInvalid() {
        assertThat(validate("{\"image\":\"nginx\",\"when\":\"yesterday\"}"))
                .extracting(Status.Cause::message)
                .containsExactly(
                        "Invalid value: \"yesterday\": spec.when in body must be of type date-time: \"yesterday\"");
    }

    @Test
    void anyOfFailureNamesThePathAndTheFirstBranch() {
        StructuralSchema s = StructuralSchema.of(KubeJson.mapper().readTree("""
                {"type":"object","properties":{"v":{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^x"}]}}}"""));
        assertThat(s.validate(KubeJson.mapper().readTree("{\"v\":\"abc\"}")))
                .extracting(Status.Cause::field)
                .containsExactly("<nil>", "v");
    }
}
