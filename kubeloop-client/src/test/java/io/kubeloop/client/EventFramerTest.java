package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.UnexpectedEndOfInputException;

class EventFramerTest {

    /** Strings with braces, brackets, quotes, backslashes and multi-byte UTF-8 inside. */
    private static final List<String> EVENTS = List.of(
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a}\\\"{\"},\"x\":[1,{\"y\":\"]\"}]}}",
            "{\"type\":\"MODIFIED\",\"object\":{\"s\":\"\\\\\",\"t\":\"\\\\\\\"}\",\"u\":\"é😀\\u00e9\"}}",
            "{\"type\":\"BOOKMARK\",\"object\":{}}",
            "{}");

    /** Hands out the bytes at most {@code chunk} at a time, as a network stream does. */
    private static InputStream chunked(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    /** What Watch does: parse each candidate, report its end, rescan when it ended inside the object. */
    private static List<String> frames(EventFramer framer) throws IOException {
        List<String> out = new ArrayList<>();
        while (framer.next()) {
            int end;
            try {
                end = objectEnd(framer);
            } catch (UnexpectedEndOfInputException e) {
                framer.rescan();
                end = objectEnd(framer);
            }
            out.add(new String(framer.buffer(), framer.offset(), end - framer.offset(), StandardCharsets.UTF_8));
            framer.consumed(end);
        }
        return out;
    }

    private static int objectEnd(EventFramer framer) {
        try (JsonParser p = ObjectCodec.STREAMING.createParser(framer.buffer(), framer.offset(), framer.length())) {
            p.nextToken();
            p.skipChildren();
            return framer.offset() + (int) p.currentLocation().getByteOffset();
        }
    }

    @Property(tries = 60)
    void cutsEveryEventWhateverTheChunkAndBufferSizes(@ForAll @IntRange(min = 1, max = 70) int chunk,
            @ForAll @IntRange(min = 1, max = 64) int initialSize) throws IOException {
        byte[] stream = (String.join("\n", EVENTS) + "\n").getBytes(StandardCharsets.UTF_8);

        assertThat(frames(new EventFramer(chunked(stream, chunk), initialSize))).containsExactlyElementsOf(EVENTS);
    }

    @Test
    void acceptsEventsWithoutSeparatorsAndWithAnyWhitespace() throws IOException {
        byte[] stream = ("  " + EVENTS.get(0) + EVENTS.get(1) + "\r\n\t " + EVENTS.get(2)).getBytes(StandardCharsets.UTF_8);

        assertThat(frames(new EventFramer(chunked(stream, 7), 16))).containsExactlyElementsOf(EVENTS.subList(0, 3));
    }

    @Test
    void aVeryLargeEventGrowsTheBufferWhichShrinksAfterwards() throws IOException {
        char[] filler = new char[6 * 1024 * 1024];
        Arrays.fill(filler, 'x');
        String big = "{\"type\":\"ADDED\",\"object\":{\"data\":\"" + new String(filler) + "\"}}";
        byte[] stream = (big + "\n" + EVENTS.get(2) + "\n").getBytes(StandardCharsets.UTF_8);
        EventFramer framer = new EventFramer(chunked(stream, 100_000));

        assertThat(framer.next()).isTrue();
        assertThat(framer.length()).isEqualTo(big.length());
        assertThat(framer.buffer().length).isGreaterThan(EventFramer.KEEP_MAX);
        assertThat(framer.next()).isTrue();
        assertThat(new String(framer.buffer(), framer.offset(), framer.length(), StandardCharsets.UTF_8)).isEqualTo(EVENTS.get(2));
        assertThat(framer.next()).isFalse();
        assertThat(framer.buffer().length).isEqualTo(EventFramer.INITIAL);
    }

    @Test
    void somethingOtherThanAnObjectIsRejected() {
        EventFramer framer = new EventFramer(chunked("[1,2]".getBytes(StandardCharsets.UTF_8), 100));

        assertThatThrownBy(framer::next).isInstanceOf(IllegalArgumentException.class).hasMessage("expected '{' but got '['");
    }

    @Test
    void aStreamEndingInsideAnEventIsRejected() throws IOException {
        EventFramer framer = new EventFramer(chunked((EVENTS.get(0) + "\n{\"type\":\"ADD").getBytes(StandardCharsets.UTF_8), 5));

        assertThatThrownBy(() -> frames(framer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the stream ended inside an event");
    }

    @Test
    void rescanOfATruncatedEventIsRejected() throws IOException {
        EventFramer framer = new EventFramer(chunked("{\"type\":\"ADD".getBytes(StandardCharsets.UTF_8), 5));

        assertThat(framer.next()).isTrue();
        assertThatThrownBy(framer::rescan).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the stream ended inside an event");
    }

    @Property(tries = 40)
    void eventsSpreadOverSeveralLinesAreFoundByRescanning(@ForAll @IntRange(min = 1, max = 50) int chunk) throws IOException {
        String pretty = "{\n  \"type\" : \"ADDED\",\n  \"object\" : {\n    \"s\" : \"}\\\"\\n{\"\n  }\n}";
        byte[] stream = (pretty + "\n" + EVENTS.get(0) + pretty + "\n" + pretty).getBytes(StandardCharsets.UTF_8);

        assertThat(frames(new EventFramer(chunked(stream, chunk), 8))).containsExactly(pretty, EVENTS.get(0), pretty, pretty);
    }

    @Test
    void newlineSearchFindsTheFirstNewlineAtEveryPosition() {
        for (int len = 0; len < 40; len++) {
            for (int at = 0; at < len; at++) {
                byte[] b = new byte[len];
                Arrays.fill(b, (byte) 0x0B); // one more than '\n': the false-positive case of the bit trick
                b[at] = '\n';
                if (at + 3 < len) {
                    b[at + 3] = '\n';
                }
                assertThat(EventFramer.indexOfNewline(b, 0, len)).isEqualTo(at);
            }
            assertThat(EventFramer.indexOfNewline(new byte[len], 0, len)).isEqualTo(-1);
        }
    }
}
