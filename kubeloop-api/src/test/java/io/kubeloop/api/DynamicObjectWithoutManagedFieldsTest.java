package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DynamicObject#withoutManagedFields()}: a compact object loses exactly the member {@code
 * metadata.managedFields} wherever it stands among its siblings, stays compact, keeps every other
 * byte and the identity it was decoded with; an object without the member is returned itself.
 */
class DynamicObjectWithoutManagedFieldsTest {

    private static final String MF = "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:spec\":{\"}\":{}}}}]";

    private static DynamicObject compact(String json) {
        return DynamicObject.fromJson(json.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "first of several | {\"kind\":\"Pod\",\"metadata\":{MF,\"name\":\"a\",\"namespace\":\"ns\"},\"spec\":{}}"
                        + " | {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"},\"spec\":{}}",
                "in the middle | {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",MF,\"namespace\":\"ns\"}}"
                        + " | {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"}}",
                "last | {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",MF}}"
                        + " | {\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"}}",
                "the only member | {\"kind\":\"Pod\",\"metadata\":{MF}} | {\"kind\":\"Pod\",\"metadata\":{}}",
                "with whitespace | { \"kind\" : \"Pod\" , \"metadata\" : { \"name\" : \"a\" ,\t  MF \t } }"
                        + " | { \"kind\" : \"Pod\" , \"metadata\" : { \"name\" : \"a\"  \t } }",
                "first, with whitespace | {\"metadata\": { MF ,  \"name\":\"a\"}} | {\"metadata\": { \"name\":\"a\"}}",
            })
    void cutsTheMemberOutOfTheBytesWhereverItStands(String where, String json, String expected) {
        DynamicObject d = compact(json.replace("MF", MF));

        DynamicObject stripped = d.withoutManagedFields();

        assertThat(stripped.isCompact()).isTrue();
        assertThat(stripped.toJson()).isEqualTo(expected);
        assertThat(stripped.metadata().managedFields()).isNull();
        assertThat(ObjectAccess.name(stripped)).isEqualTo(ObjectAccess.name(d));
        assertThat(ObjectAccess.namespace(stripped)).isEqualTo(ObjectAccess.namespace(d));
        assertThat(stripped.kind()).isEqualTo(d.kind());
    }

    @Test
    void anObjectWithoutManagedFieldsIsReturnedItself() {
        DynamicObject compact =
                compact("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"managedFields\":1}}");
        DynamicObject tree = DynamicObject.parse("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}");

        assertThat(compact.withoutManagedFields()).isSameAs(compact);
        assertThat(tree.withoutManagedFields()).isSameAs(tree);
    }

    @Test
    void aManagedFieldsMemberOutsideMetadataIsKept() {
        String json = "{\"metadata\":{\"name\":\"a\"},\"spec\":{\"metadata\":{" + MF + "}}}";

        assertThat(compact(json).withoutManagedFields().toJson()).isEqualTo(json);
    }

    @Test
    void aTreeFormObjectGetsAChangedCopyAndIsItselfUnchanged() {
        DynamicObject tree = DynamicObject.parse("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"," + MF + "}}");

        DynamicObject stripped = tree.withoutManagedFields();

        assertThat(stripped.node().get("metadata").has("managedFields")).isFalse();
        assertThat(tree.node().get("metadata").has("managedFields")).isTrue();
        assertThat(stripped.key()).isEqualTo(ObjectKey.of(null, "a"));
    }
}
