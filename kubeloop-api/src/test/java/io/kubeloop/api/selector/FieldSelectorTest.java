package io.kubeloop.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorTest {

    private static final Map<String, String> POD = Map.of(
            "metadata.name",
            "web-1",
            "metadata.namespace",
            "prod",
            "status.phase",
            "Running",
            "spec.nodeName",
            "a,b=c\\d");

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "metadata.name=web-1                         | metadata.name=web-1",
                "metadata.name==web-1                        | metadata.name=web-1",
                "status.phase!=Pending                       | status.phase!=Pending",
                "'status.phase=Running,metadata.name=web-1'  | metadata.name=web-1,status.phase=Running",
                "'a=,,b=x'                                   | a=,b=x",
                "'spec.nodeName=a\\,b\\=c\\\\d'              | 'spec.nodeName=a\\,b\\=c\\\\d'",
                "'x==\\=y'                                   | 'x=\\=y'",
            })
    void parsesAndFormatsCanonically(String text, String canonical) {
        FieldSelector s = FieldSelector.parse(text);

        assertThat(s.format()).isEqualTo(canonical);
        assertThat(FieldSelector.parse(canonical)).isEqualTo(s);
    }

    @Test
    void escapedValueIsUnescaped() {
        FieldSelector s = FieldSelector.parse("spec.nodeName=a\\,b\\=c\\\\d");

        assertThat(s.requirements()).containsExactly(FieldRequirement.equal("spec.nodeName", "a,b=c\\d"));
        assertThat(s.matches(POD::get)).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "metadata.name=web-1                        | true",
                "metadata.name=web-2                        | false",
                "metadata.name!=web-2                       | true",
                "'metadata.namespace=prod,status.phase=Running' | true",
                "'metadata.namespace=prod,status.phase=Failed'  | false",
                "missing.field!=x                           | true",
                "missing.field=                             | true",
                "missing.field=x                            | false",
                "''                                         | true",
            })
    void matchesLikeApimachinery(String selector, boolean expected) {
        assertThat(FieldSelector.parse(selector).matches(POD::get)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "'a=b,noop'       | 4 | invalid field selector: can't understand 'noop', expected field=value, field==value or field!=value",
                "'=x'             | 0 | invalid field selector: field name must not be empty",
                "'a=b\\x'         | 3 | invalid field selector: invalid escape sequence: \\x",
                "'a=b\\'          | 3 | invalid field selector: invalid escape sequence: \\",
                "'a=b=c'          | 3 | invalid field selector: unescaped character in value: '='",
                "'a!b=c'          | 0 | invalid field selector: invalid field name \"a!b\": must not contain '!'",
            })
    void malformedTextNamesProblemAndPosition(String text, int position, String problem) {
        assertThatThrownBy(() -> FieldSelector.parse(text)).isInstanceOfSatisfying(SelectorParseException.class, e -> {
            assertThat(e.problem()).isEqualTo(problem);
            assertThat(e.position()).isEqualTo(position);
        });
    }

    @Test
    void matchesMetadataOfAnyObject() {
        DynamicObject pod = DynamicObject.of("v1", "Pod", ObjectMeta.of("prod", "web-1"));
        DynamicObject node = DynamicObject.of("v1", "Node", ObjectMeta.of(null, "n1"));
        Pod fabric8 = new PodBuilder()
                .withNewMetadata()
                .withNamespace("prod")
                .withName("web-1")
                .endMetadata()
                .build();

        FieldSelector s = FieldSelector.parse("metadata.namespace=prod,metadata.name=web-1");

        assertThat(s.matchesMetadata(pod)).isTrue();
        assertThat(s.matchesMetadata(fabric8)).isTrue();
        assertThat(s.matchesMetadata(node)).isFalse();
        assertThat(FieldSelector.parse("metadata.namespace=").matchesMetadata(node))
                .isTrue();
    }

    @Test
    void matchesMetadataRejectsOtherFields() {
        DynamicObject pod = DynamicObject.of("v1", "Pod", ObjectMeta.of("prod", "web-1"));

        assertThatThrownBy(() -> FieldSelector.parse("status.phase=Running").matchesMetadata(pod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field label not supported: status.phase");
    }

    @Test
    void requiresExactMatchFindsEqualsTerms() {
        FieldSelector s = FieldSelector.parse("metadata.name=web,status.phase!=Failed");

        assertThat(s.requiresExactMatch("metadata.name")).contains("web");
        assertThat(s.requiresExactMatch("status.phase")).isEmpty();
    }

    @Test
    void programmaticFieldNamesAreValidated() {
        assertThatThrownBy(() -> FieldRequirement.equal("a=b", "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not contain '='");
        assertThat(FieldSelector.of(FieldRequirement.notEqual("b", "2"), FieldRequirement.equal("a", "1"))
                        .format())
                .isEqualTo("a=1,b!=2");
        assertThat(FieldSelector.equal("metadata.name", "x,y").format()).isEqualTo("metadata.name=x\\,y");
    }
}
