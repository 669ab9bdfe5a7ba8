package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

/**
 * Watch streams a server could send broken (valid event streams with bytes replaced, inserted or cut, events of
 * unknown types or without objects, invalid UTF-8, objects nested up to 100,000 levels), read in chunks of random
 * size: the decoder returns events until the end, or throws its documented {@link JacksonException} or
 * {@link IllegalArgumentException}, never another exception, and never reads forever.
 */
class WatchDecoderFuzzTest {

    private static final String POD =
            "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\","
                    + "\"resourceVersion\":\"7\",\"uid\":\"u\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"l\":[1,{\"x\":\"}\\\"{\"}]}}";
    private static final String STREAM = "{\"type\":\"ADDED\",\"object\":" + POD + "}\n"
            + "{\"type\":\"MODIFIED\",\"object\":" + POD + "}\n"
            + "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"9\"}}}\n"
            + "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410,"
            + "\"reason\":\"Expired\",\"message\":\"too old\"}}\n"
            + "{\"type\":\"DELETED\",\"object\":" + POD + "}\n";

    @Provide
    Arbitrary<byte[]> streams() {
        byte[] valid = STREAM.getBytes(StandardCharsets.UTF_8);
        Arbitrary<byte[]> edited = Combinators.combine(
                        Arbitraries.integers()
                                .between(0, valid.length)
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
                                (byte) '\n',
                                (byte) 0,
                                (byte) 0xff,
                                (byte) 0xc3,
                                (byte) 'x'),
                        Arbitraries.of(true, false))
                .as((at, b, insert) -> {
                    byte[] out = valid;
                    for (int pos : at) {
                        int p = Math.min(pos, out.length - 1);
                        if (insert) {
                            byte[] c = new byte[out.length + 1];
                            System.arraycopy(out, 0, c, 0, p);
                            c[p] = b;
                            System.arraycopy(out, p, c, p + 1, out.length - p);
                            out = c;
                        } else {
                            out = out.clone();
                            out[p] = b;
                        }
                    }
                    return out;
                });
        Arbitrary<byte[]> truncated =
                Arbitraries.integers().between(0, valid.length).map(n -> Arrays.copyOf(valid, n));
        Arbitrary<byte[]> odd = Arbitraries.of(
                        "{\"type\":\"JUNK\",\"object\":" + POD + "}",
                        "{\"type\":\"ADDED\"}",
                        "{\"object\":" + POD + "}",
                        "{\"type\":\"ADDED\",\"object\":[1]}",
                        "{\"type\":\"ADDED\",\"object\":\"x\"}",
                        "{\"type\":7,\"object\":null}",
                        "{\"type\":\"ERROR\",\"object\":{\"code\":\"x\"}}",
                        "[]",
                        "null",
                        "{\"type\":\"ADDED\",\"object\":" + POD + "}{}",
                        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"x\":" + "[".repeat(100_000)
                                + "]".repeat(100_000) + "}}",
                        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"x\":" + "{\"a\":".repeat(10_000) + "1"
                                + "}".repeat(10_000) + "}}",
                        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"x\":" + "[".repeat(100_000))
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(Tuple.of(6, edited), Tuple.of(2, truncated), Tuple.of(2, odd));
    }

    private static InputStream chunked(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    @Property(tries = 500, seed = "18", shrinking = ShrinkingMode.OFF)
    void aBrokenStreamGivesEventsThenTheEndOrADocumentedException(
            @ForAll("streams") byte[] stream, @ForAll @IntRange(min = 1, max = 4096) int chunk) {
        WatchDecoder<DynamicObject> decoder =
                new WatchDecoder<>(chunked(stream, chunk), new ObjectCodec<>(DynamicObject.class));
        try {
            for (int events = 0; decoder.next() != null; events++) {
                assertThat(events).as("events from %d bytes", stream.length).isLessThan(stream.length);
            }
        } catch (JacksonException | IllegalArgumentException documented) {
            assertThat(documented.getMessage()).isNotNull();
        } catch (RuntimeException | StackOverflowError other) {
            throw new AssertionError(
                    "stream " + new String(stream, 0, Math.min(stream.length, 400), StandardCharsets.UTF_8), other);
        }
    }

    @Test
    void theValidStreamDecodesToItsFiveEvents() {
        WatchDecoder<DynamicObject> decoder = new WatchDecoder<>(
                chunked(STREAM.getBytes(StandardCharsets.UTF_8), 7), new ObjectCodec<>(DynamicObject.class));
        List<WatchEvent<DynamicObject>> events = new ArrayList<>();
        WatchEvent<DynamicObject> e;
        while ((e = decoder.next()) != null) {
            events.add(e);
        }
        assertThat(events).hasSize(5);
    }
}
