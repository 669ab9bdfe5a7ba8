package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import tools.jackson.core.JacksonException;

/**
 * Malformed JSON against the byte scanner and the {@link DynamicObject} readers: valid objects with bytes replaced,
 * inserted or cut, invalid UTF-8, and arrays or objects nested up to 100,000 levels. The scanner answers an end
 * inside the input or one of its negative codes, and never throws; the readers return an object or throw their
 * documented {@link IllegalArgumentException} or {@link JacksonException}, never another exception, never a stack
 * overflow.
 */
class BadJsonFuzzTest {

    private static final List<String> VALID = List.of(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\","
                    + "\"resourceVersion\":\"12\",\"uid\":\"u-1\",\"labels\":{\"app\":\"web\"}},\"data\":{\"k\":\"v\\u00e9\\n\"}}",
            "{\"metadata\":{\"name\":\"b\",\"annotations\":{\"x\":\"{\\\"nested\\\":[1,2]}\"}},\"spec\":{\"replicas\":3,"
                    + "\"f\":-1.5e-3,\"t\":true,\"n\":null,\"l\":[[],{},[{\"a\":\"\"}]]}}",
            "{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}],\"metadata\":{}}");

    @Provide
    Arbitrary<byte[]> inputs() {
        Arbitrary<byte[]> valid = Arbitraries.of(VALID).map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> edited = Combinators.combine(
                        valid,
                        Arbitraries.integers()
                                .between(0, 10_000)
                                .list()
                                .ofMinSize(1)
                                .ofMaxSize(4),
                        Arbitraries.of(
                                        (byte) '{',
                                        (byte) '}',
                                        (byte) '[',
                                        (byte) ']',
                                        (byte) '"',
                                        (byte) '\\',
                                        (byte) ',',
                                        (byte) ':',
                                        (byte) 'n',
                                        (byte) '1',
                                        (byte) '-',
                                        (byte) 'e',
                                        (byte) 0,
                                        (byte) 0xc3,
                                        (byte) 0xff,
                                        (byte) 0xed,
                                        (byte) ' ')
                                .list()
                                .ofMinSize(1)
                                .ofMaxSize(4),
                        Arbitraries.of(Edit.class))
                .as(BadJsonFuzzTest::edit);
        Arbitrary<byte[]> truncated = Combinators.combine(
                        valid, Arbitraries.doubles().between(0, 1))
                .as((b, f) -> Arrays.copyOf(b, (int) (b.length * f)));
        Arbitrary<byte[]> nested = Combinators.combine(
                        Arbitraries.of(10, 500, 501, 1_000, 10_000, 100_000),
                        Arbitraries.of("[", "{\"a\":", "{\"metadata\":"),
                        Arbitraries.of(true, false))
                .as((depth, open, closed) -> {
                    String close = open.equals("[") ? "]" : "}";
                    String text = "{\"metadata\":{\"name\":\"deep\"},\"x\":" + open.repeat(depth) + "1"
                            + (closed ? close.repeat(depth) + "}" : "");
                    return text.getBytes(StandardCharsets.UTF_8);
                });
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        return Arbitraries.frequencyOf(
                Tuple.of(6, edited),
                Tuple.of(2, truncated),
                Tuple.of(2, nested),
                Tuple.of(1, random),
                Tuple.of(1, valid));
    }

    enum Edit {
        REPLACE,
        INSERT,
        DELETE
    }

    private static byte[] edit(byte[] valid, List<Integer> at, List<Byte> bytes, Edit edit) {
        byte[] b = valid;
        for (int i = 0; i < at.size(); i++) {
            int pos = at.get(i) % (b.length + 1);
            byte v = bytes.get(i % bytes.size());
            b = switch (edit) {
                case REPLACE -> {
                    byte[] c = b.clone();
                    if (pos < c.length) {
                        c[pos] = v;
                    }
                    yield c;
                }
                case INSERT -> {
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, pos);
                    c[pos] = v;
                    System.arraycopy(b, pos, c, pos + 1, b.length - pos);
                    yield c;
                }
                case DELETE -> {
                    if (pos >= b.length) {
                        yield b;
                    }
                    byte[] c = new byte[b.length - 1];
                    System.arraycopy(b, 0, c, 0, pos);
                    System.arraycopy(b, pos + 1, c, pos, b.length - pos - 1);
                    yield c;
                }
            };
        }
        return b;
    }

    private static void assertDocumented(Throwable thrown, byte[] input) {
        if (thrown != null) {
            assertThat(thrown)
                    .as("input %s", new String(input, 0, Math.min(input.length, 300), StandardCharsets.UTF_8))
                    .isInstanceOfAny(IllegalArgumentException.class, JacksonException.class);
        }
    }

    @Property(tries = 500, seed = "18", shrinking = ShrinkingMode.OFF)
    void theScannerAnswersAnEndOrACodeAndNeverThrows(@ForAll("inputs") byte[] input) {
        int end = JsonScanner.valueEnd(input, 0, input.length);

        assertThat(end)
                .satisfiesAnyOf(
                        e -> assertThat(e).isIn(JsonScanner.NEED_MORE, JsonScanner.FALLBACK),
                        e -> assertThat(e).isBetween(1, input.length));
    }

    @Property(tries = 500, seed = "18", shrinking = ShrinkingMode.OFF)
    void fromJsonReturnsAnObjectOrThrowsItsDocumentedExceptions(@ForAll("inputs") byte[] input) {
        assertDocumented(catchThrowable(() -> DynamicObject.fromJson(input.clone())), input);
    }

    @Property(tries = 500, seed = "18", shrinking = ShrinkingMode.OFF)
    void theReaderScansOrReadsOrThrowsItsDocumentedExceptions(@ForAll("inputs") byte[] input) {
        DynamicObjectReader reader = new DynamicObjectReader();
        assertDocumented(catchThrowable(() -> reader.scan(input, 0, input.length)), input);
        assertDocumented(catchThrowable(() -> reader.read(input, 0, input.length, null, null)), input);
        assertDocumented(catchThrowable(() -> DynamicObjectReader.readLabels(input)), input);
        assertDocumented(catchThrowable(() -> DynamicObjectReader.readMetadata(input)), input);
    }
}
