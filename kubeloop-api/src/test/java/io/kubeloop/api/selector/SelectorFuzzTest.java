package io.kubeloop.api.selector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;

/**
 * Arbitrary text, mostly made of selector syntax, against the label and field selector parsers: each parses or
 * throws {@link SelectorParseException}, never another exception; what parses formats to text that parses back to
 * the same selector, and matches without throwing.
 */
class SelectorFuzzTest {

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> token = Arbitraries.of(
                "app",
                "tier",
                "example.com/team",
                "a.b-c_d",
                "x9",
                "metadata.name",
                "status.phase",
                "spec.nodeName",
                "web",
                "db",
                "",
                " ",
                "=",
                "==",
                "!=",
                "!",
                ",",
                "(",
                ")",
                " in ",
                " notin ",
                "in",
                "notin",
                ">",
                "<",
                "-1",
                "99999999999999999999",
                "1",
                "/",
                ".",
                "-",
                "_",
                "\\",
                "\\,",
                "\\=",
                "é",
                "\u0000",
                "\t",
                "a".repeat(64),
                "b".repeat(300),
                "%",
                "\"",
                "'");
        Arbitrary<String> fromTokens = token.list().ofMaxSize(12).map(l -> String.join("", l));
        Arbitrary<String> anyChars = Arbitraries.strings().ofMaxLength(30);
        Arbitrary<String> many = Arbitraries.of("a=b", "a in (b,c)", "!a", "a")
                .map(t -> String.join(",", Collections.nCopies(5_000, t)));
        return Arbitraries.frequencyOf(Tuple.of(8, fromTokens), Tuple.of(2, anyChars), Tuple.of(1, many));
    }

    @Property(tries = 1000, seed = "18", shrinking = ShrinkingMode.OFF)
    void aLabelSelectorParsesAndRoundTripsOrIsASelectorParseException(@ForAll("texts") String text) {
        LabelSelector s;
        try {
            s = LabelSelector.parse(text);
        } catch (SelectorParseException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            return;
        }
        assertThat(LabelSelector.parse(s.format())).as("%s formatted", text).isEqualTo(s);
        s.matches(Map.of("app", "web", "tier", "1"));
    }

    @Property(tries = 1000, seed = "18", shrinking = ShrinkingMode.OFF)
    void aFieldSelectorParsesAndRoundTripsOrIsASelectorParseException(@ForAll("texts") String text) {
        FieldSelector s;
        try {
            s = FieldSelector.parse(text);
        } catch (SelectorParseException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            return;
        }
        assertThat(FieldSelector.parse(s.format())).as("%s formatted", text).isEqualTo(s);
        s.matches(field -> List.of("metadata.name", "status.phase").contains(field) ? "web" : null);
    }
}
