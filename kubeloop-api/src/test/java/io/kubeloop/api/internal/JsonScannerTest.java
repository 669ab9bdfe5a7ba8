package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonScannerTest {

    private static final byte[][] NAMES = {bytes("apiVersion"), bytes("kind"), bytes("metadata")};

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int end(String json) {
        byte[] b = bytes(json);
        return JsonScanner.valueEnd(b, 0, b.length);
    }

    /** The value spans of apiVersion, kind, metadata as text ("-" when absent), after the object's end. */
    private static String members(String json) {
        byte[] b = bytes(json);
        int[] spans = new int[6];
        int end = JsonScanner.members(b, 0, b.length, NAMES, spans);
        StringBuilder out = new StringBuilder().append(end);
        for (int k = 0; k < 3; k++) {
            out.append(' ')
                    .append(
                            spans[2 * k] < 0
                                    ? "-"
                                    : new String(
                                            b, spans[2 * k], spans[2 * k + 1] - spans[2 * k], StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    @Test
    void stringsEndAtTheFirstUnescapedQuote() {
        assertThat(end("\"a\\\"b\" ")).isEqualTo(6);
        assertThat(end("\"a\\\\\" ")).isEqualTo(5);
        assertThat(end("\"\\\\\\\"\" ")).isEqualTo(6);
        assertThat(end("\"\\u00e9é😀\\/\\b\\f\\n\\r\\t\" "))
                .isEqualTo(bytes("\"\\u00e9é😀\\/\\b\\f\\n\\r\\t\"").length);
    }

    @Test
    void containersEndAtTheirMatchingBracketWhateverTheStringsInside() {
        String v = "{\"a\":[{\"b\":\"}]\"},[],{},[[1,2],{\"c\":null}]],\"d\":{\"e\":\"[{\\\"\"}}";
        assertThat(end(v + ",1")).isEqualTo(bytes(v).length);
        assertThat(end("[ 1 , -2.5e+3 , 0 , true , false , null , \"x\" ]")).isEqualTo(47);
        assertThat(end("{ }")).isEqualTo(3);
        assertThat(end("[\n]")).isEqualTo(3);
    }

    @Test
    void scalarsEndBeforeTheNextDelimiter() {
        assertThat(end("true,")).isEqualTo(4);
        assertThat(end("false}")).isEqualTo(5);
        assertThat(end("null]")).isEqualTo(4);
        assertThat(end("-0.5E-7 ")).isEqualTo(7);
        assertThat(end("12345678901234567890,")).isEqualTo(20);
    }

    @Test
    void membersAreFoundInAnyOrderWithAnyWhitespace() {
        assertThat(members("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}"))
                .isEqualTo("56 \"v1\" \"Pod\" {\"name\":\"a\"}");
        assertThat(members("{ \"metadata\" : { } ,\n\t\"x\" : [ ] , \"kind\" : null }"))
                .isEqualTo("49 - null { }");
        assertThat(members("{}")).isEqualTo("2 - - -");
        assertThat(members("{\"kind\":\"A\",\"kind\":\"B\"}")).isEqualTo("23 - \"B\" -");
    }

    @Test
    void aNameThatIsOnlyAPrefixDoesNotMatch() {
        assertThat(members("{\"kinds\":1,\"kin\":2}")).isEqualTo("19 - - -");
    }

    @Test
    void anEscapedMemberNameIsLeftToJackson() {
        assertThat(members("{\"k\\u0069nd\":\"Pod\"}")).startsWith(String.valueOf(JsonScanner.FALLBACK));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[1,]",
                "[,1]",
                "{\"a\" 1}",
                "{\"a\":1,}",
                "{1:2}",
                "[1 2]",
                "{\"a\":tru}",
                "[nul]",
                "[01]",
                "[1.]",
                "[-]",
                "[1e]",
                "[+1]",
                "[.5]",
                "[\"\\x\"]",
                "[\"\\u12g4\"]",
                "[\"a\u0001\"]",
                "[}",
                "{]",
                "{\"a\":1]",
                "[1}",
                "[truex]",
                "x"
            })
    void malformedValuesAreNotAccepted(String json) {
        assertThat(end(json + "   ")).isEqualTo(JsonScanner.FALLBACK);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":[1,2", "\"abc", "\"ab\\", "[tr", "{\"a\"", "{\"a\":", "[1", "[\"\\u00"})
    void truncatedValuesNeedMore(String json) {
        assertThat(end(json)).isEqualTo(JsonScanner.NEED_MORE);
    }

    @Test
    void deepNestingBeyondTheBitStackIsLeftToJackson() {
        String deep = "[".repeat(70) + "]".repeat(70);
        assertThat(end(deep)).isEqualTo(JsonScanner.FALLBACK);
        String ok = "[".repeat(64) + "]".repeat(64);
        assertThat(end(ok)).isEqualTo(128);
    }

    @Test
    void malformedMembersAreNotAccepted() {
        assertThat(members("{\"kind\" \"Pod\"}")).startsWith("-2");
        assertThat(members("{\"kind\":\"Pod\" \"a\":1}")).startsWith("-2");
        assertThat(members("[1]")).startsWith("-2");
        assertThat(members("{kind:1}")).startsWith("-2");
        assertThat(members("{\"kind\":\"Pod\"")).startsWith("-1");
    }
}
