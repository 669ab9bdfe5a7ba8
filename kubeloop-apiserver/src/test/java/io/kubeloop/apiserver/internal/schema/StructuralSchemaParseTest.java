package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class StructuralSchemaParseTest {

    private static final String BASE = "spec.versions[0].schema.openAPIV3Schema";

    private static List<Status.Cause> causesOf(String schema) {
        try {
            StructuralSchema.of(KubeJson.mapper().readTree(schema), BASE);
        } catch (NonStructuralSchemaException e) {
            return e.causes();
        }
        throw new AssertionError("schema was accepted: " + schema);
    }

    @Test
    void aTypicalCrdSchemaIsStructural() {
        StructuralSchema s = StructuralSchema.of(KubeJson.mapper().readTree("""
                {"type":"object","properties":{"spec":{"type":"object","required":["image"],"properties":{
                  "image":{"type":"string"},"replicas":{"type":"integer","minimum":0},
                  "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
                  "labels":{"type":"object","additionalProperties":{"type":"string"}},
                  "items":{"type":"array","items":{"type":"string"}},
                  "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
                 "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}"""));
        assertThat(s.properties().get("spec").properties()).containsKeys("image", "replicas", "port", "labels");
    }

    @Test
    void aFieldWithoutTypeIsRejectedLikeTheRealServer() {
        assertThat(causesOf("""
                {"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}}"""))
                .containsExactly(new Status.Cause(
                        "FieldValueRequired",
                        "Required value: must not be empty for specified object fields",
                        BASE + ".properties[spec].type"));
    }

    @Test
    void anArrayItemWithoutTypeIsRejected() {
        assertThat(causesOf("""
                {"type":"object","properties":{"l":{"type":"array","items":{}}}}"""))
                .extracting(Status.Cause::field, Status.Cause::message)
                .containsExactly(Tuple.tuple(
                        BASE + ".properties[l].items.type",
                        "Required value: must not be empty for specified array items"));
    }

    @Test
    void aRootWithoutTypeIsRejected() {
        assertThat(causesOf("{\"properties\":{\"a\":{\"type\":\"string\"}}}"))
                .extracting(Status.Cause::message)
                .containsExactly("Required value: must not be empty at the root");
    }

    @Test
    void anArrayWithoutItemsIsRejected() {
        assertThat(causesOf("{\"type\":\"object\",\"properties\":{\"l\":{\"type\":\"array\"}}}"))
                .containsExactly(new Status.Cause(
                        "FieldValueRequired", "Required value: must be specified", BASE + ".properties[l].items"));
    }

    @Test
    void aRootThatIsNotAnObjectIsRejected() {
        assertThat(causesOf("{\"type\":\"string\"}"))
                .containsExactly(new Status.Cause(
                        "FieldValueInvalid", "Invalid value: \"string\": must be object at the root", BASE + ".type"));
    }

    @Test
    void additionalPropertiesAtTheRootIsForbidden() {
        assertThat(causesOf("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}"))
                .containsExactly(new Status.Cause(
                        "FieldValueForbidden",
                        "Forbidden: must not be used at the root",
                        BASE + ".additionalProperties"));
    }

    @Test
    void typeInsideAValueValidationIsForbidden() {
        assertThat(causesOf("""
                {"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string"},{"maxLength":3}]}}}"""))
                .containsExactly(new Status.Cause(
                        "FieldValueForbidden",
                        "Forbidden: must be empty to be structural",
                        BASE + ".properties[a].anyOf[0].type"));
    }

    @Test
    void metadataMayOnlyRestrictNameAndGenerateName() {
        assertThat(causesOf("""
                {"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}"""))
                .extracting(Status.Cause::field, Status.Cause::reason)
                .containsExactly(Tuple.tuple(BASE + ".properties[metadata]", "FieldValueForbidden"));
    }

    @Test
    void uniqueItemsIsForbidden() {
        assertThat(causesOf("""
                {"type":"object","properties":{"l":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}}"""))
                .extracting(Status.Cause::message)
                .containsExactly(
                        "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic");
    }

    @Test
    void refIsForbidden() {
        assertThat(causesOf("""
                {"type":"object","properties":{"a":{"type":"object","$ref":"#/definitions/x"}}}""")).extracting(Status.Cause::message).containsExactly("Forbidden: $ref is not supported");
    }

    @Test
    void anUnknownTypeIsNotSupported() {
        assertThat(causesOf("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"str\"}}}"))
                .containsExactly(new Status.Cause(
                        "FieldValueNotSupported",
                        "Unsupported value: \"str\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
                        BASE + ".properties[a].type"));
    }

    @Test
    void causesAreSortedAndTheMessageNamesTheFirst() {
        assertThatThrownBy(() -> StructuralSchema.of(KubeJson.mapper().readTree("""
                {"type":"object","properties":{"b":{},"a":{}}}"""), BASE))
                .isInstanceOf(NonStructuralSchemaException.class)
                .hasMessage(
                        "schema is not structural: " + BASE
                                + ".properties[a].type: Required value: must not be empty for specified object fields (and 1 more)");
    }

    @Test
    void embeddedResourceMustBeAnObjectWithProperties() {
        assertThat(causesOf("""
                {"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true}}}""")).extracting(Status.Cause::field).containsExactly(BASE + ".properties[e].properties");
    }

    @Test
    void preserveUnknownFieldsFalseIsInvalid() {
        assertThat(causesOf("""
                {"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":false}}}"""))
                .extracting(Status.Cause::message)
                .containsExactly("Invalid value: false: must be true or undefined");
    }

    @Test
    void aPropertyOnlyInAValueValidationIsRequiredStructurally() {
        assertThat(causesOf("""
                {"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}},
                  "anyOf":[{"properties":{"y":{}}}]}}}"""))
                .extracting(Status.Cause::field, Status.Cause::message)
                .containsExactly(Tuple.tuple(
                        BASE + ".properties[a].properties[y]",
                        "Required value: because it is defined in " + BASE + ".properties[a].anyOf[0].properties[y]"));
    }

    @Test
    void nullableRootIsForbidden() {
        assertThat(causesOf("{\"type\":\"object\",\"nullable\":true}"))
                .extracting(Status.Cause::message)
                .containsExactly("Forbidden: nullable cannot be true at the root");
    }

    @Test
    void aDefaultThatViolatesItsSchemaIsInvalid() {
        assertThat(causesOf("""
                {"type":"object","properties":{"n":{"type":"integer","default":"x"}}}"""))
                .extracting(Status.Cause::field, Status.Cause::reason)
                .containsExactly(Tuple.tuple(BASE + ".properties[n].default", "FieldValueTypeInvalid"));
    }
}
