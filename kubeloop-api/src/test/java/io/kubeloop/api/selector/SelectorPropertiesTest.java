package io.kubeloop.api.selector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Round trips and matching against a deliberately naive reference evaluation. */
class SelectorPropertiesTest {

    private static final List<String> KEYS = List.of("app", "tier", "example.com/team", "a.b-c_d", "in", "x9");

    @Provide
    Arbitrary<String> values() {
        Arbitrary<String> word =
                Arbitraries.strings().withChars("abcXYZ019").ofMinLength(1).ofMaxLength(5);
        Arbitrary<String> inner = Arbitraries.strings()
                .withChars("ab-_.9")
                .ofMinLength(1)
                .ofMaxLength(4)
                .map(s -> "v" + s + "w");
        return Arbitraries.oneOf(word, inner, Arbitraries.just(""), Arbitraries.of("1", "2", "10", "007"));
    }

    @Provide
    Arbitrary<LabelRequirement> requirements() {
        Arbitrary<String> key = Arbitraries.of(KEYS);
        Arbitrary<LabelOperator> op = Arbitraries.of(LabelOperator.class);
        Arbitrary<List<String>> vals = values().list().ofMinSize(1).ofMaxSize(4);
        Arbitrary<Long> number = Arbitraries.longs().between(0, 20);
        return Combinators.combine(key, op, vals, number).as((k, o, vs, n) -> switch (o) {
            case EXISTS, DOES_NOT_EXIST -> new LabelRequirement(k, o, List.of());
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> new LabelRequirement(k, o, List.of(vs.getFirst()));
            case IN, NOT_IN -> new LabelRequirement(k, o, vs);
            case GREATER_THAN, LESS_THAN -> new LabelRequirement(k, o, List.of(Long.toString(n)));
        });
    }

    @Provide
    Arbitrary<LabelSelector> labelSelectors() {
        return requirements().list().ofMaxSize(5).map(LabelSelector::of);
    }

    @Provide
    Arbitrary<Map<String, String>> labelSets() {
        return Arbitraries.maps(Arbitraries.of(KEYS), values()).ofMaxSize(KEYS.size());
    }

    @Property
    void labelFormatParsesBackToTheSameSelector(@ForAll("labelSelectors") LabelSelector s) {
        LabelSelector again = LabelSelector.parse(s.format());

        assertThat(again).isEqualTo(s);
        assertThat(again.format()).isEqualTo(s.format());
    }

    @Property
    void labelMatchingAgreesWithReference(
            @ForAll("labelSelectors") LabelSelector s, @ForAll("labelSets") Map<String, String> labels) {
        boolean expected = s.requirements().stream().allMatch(r -> reference(r, labels));

        assertThat(s.matches(labels)).isEqualTo(expected);
        assertThat(LabelSelector.parse(s.format()).matches(labels)).isEqualTo(expected);
    }

    private static boolean reference(LabelRequirement r, Map<String, String> labels) {
        boolean has = labels.containsKey(r.key());
        String v = labels.get(r.key());
        return switch (r.operator()) {
            case EQUALS, DOUBLE_EQUALS -> has && v.equals(r.values().get(0));
            case NOT_EQUALS -> !has || !v.equals(r.values().get(0));
            case IN -> has && r.values().contains(v);
            case NOT_IN -> !has || !r.values().contains(v);
            case EXISTS -> has;
            case DOES_NOT_EXIST -> !has;
            case GREATER_THAN, LESS_THAN -> {
                if (!has || !v.matches("[+-]?[0-9]{1,18}")) {
                    yield false;
                }
                long have = Long.parseLong(v);
                long want = Long.parseLong(r.values().get(0));
                yield r.operator() == LabelOperator.GREATER_THAN ? have > want : have < want;
            }
        };
    }

    @Provide
    Arbitrary<FieldSelector> fieldSelectors() {
        Arbitrary<String> field = Arbitraries.of("metadata.name", "metadata.namespace", "status.phase", "spec.x");
        Arbitrary<String> value = Arbitraries.strings().withChars("ab,=\\ .-").ofMaxLength(6);
        Arbitrary<FieldRequirement> req = Combinators.combine(
                        field, Arbitraries.of(FieldRequirement.Operator.class), value)
                .as(FieldRequirement::new);
        return req.list().ofMaxSize(4).map(FieldSelector::of);
    }

    @Property
    void fieldFormatParsesBackToTheSameSelector(@ForAll("fieldSelectors") FieldSelector s) {
        FieldSelector again = FieldSelector.parse(s.format());

        assertThat(again).isEqualTo(s);
        assertThat(again.format()).isEqualTo(s.format());
    }

    @Property
    void fieldMatchingAgreesWithReference(
            @ForAll("fieldSelectors") FieldSelector s, @ForAll("fieldSets") Map<String, String> fields) {
        boolean expected = s.requirements().stream().allMatch(r -> {
            String actual = fields.getOrDefault(r.field(), "");
            return (r.operator() == FieldRequirement.Operator.EQUALS) == actual.equals(r.value());
        });

        assertThat(s.matches(fields::get)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Map<String, String>> fieldSets() {
        return Arbitraries.maps(
                        Arbitraries.of("metadata.name", "metadata.namespace", "status.phase", "spec.x"),
                        Arbitraries.strings().withChars("ab,=\\ .-").ofMaxLength(3))
                .ofMaxSize(4);
    }
}
