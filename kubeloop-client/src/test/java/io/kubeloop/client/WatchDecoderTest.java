package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectKey;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import tools.jackson.core.exc.JacksonIOException;

class WatchDecoderTest {

    /** Braces, brackets, quotes and backslashes inside strings; escaped and raw multi-byte UTF-8; nesting. */
    private static final String TRICKY = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"namespace\":\"ns\","
            + "\"name\":\"a}\\\"{\",\"resourceVersion\":\"7\",\"uid\":\"u\",\"annotations\":{\"x\":\"\\\\\\\"]\\u00e9é😀\"}},"
            + "\"spec\":{\"list\":[{\"y\":[[],{}]},{}],\"n\":1.50e2,\"t\":true,\"z\":null}}";
    /** The same object over several lines, as a pretty printer writes it. */
    private static final String PRETTY =
            "{\n  \"kind\" : \"Pod\",\n  \"metadata\" : {\n    \"name\" : \"p\"\n  },\n" + "  \"data\" : [ 1, 2 ]\n}";

    private static InputStream chunked(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    private static List<WatchEvent<DynamicObject>> decodeAll(String stream, int chunk, int buffer) {
        WatchDecoder<DynamicObject> decoder = new WatchDecoder<>(
                chunked(stream.getBytes(StandardCharsets.UTF_8), chunk),
                new ObjectCodec<>(DynamicObject.class),
                buffer);
        List<WatchEvent<DynamicObject>> out = new ArrayList<>();
        WatchEvent<DynamicObject> e;
        while ((e = decoder.next()) != null) {
            out.add(e);
        }
        return out;
    }

    private static String json(WatchEvent<DynamicObject> e) {
        return switch (e) {
            case WatchEvent.Added<DynamicObject> a -> "ADDED " + a.object().toJson();
            case WatchEvent.Modified<DynamicObject> m ->
                "MODIFIED " + m.object().toJson();
            case WatchEvent.Deleted<DynamicObject> d -> "DELETED " + d.object().toJson();
            case WatchEvent.Bookmark<DynamicObject> b -> "BOOKMARK " + b.resourceVersion() + " " + b.annotations();
            case WatchEvent.Error<DynamicObject> err -> "ERROR " + err.status().code();
        };
    }

    @Property(tries = 80)
    void everyObjectKeepsItsExactBytesWhateverTheChunkAndBufferSizes(
            @ForAll @IntRange(min = 1, max = 90) int chunk, @ForAll @IntRange(min = 1, max = 300) int buffer) {
        String stream = event("ADDED", TRICKY) + "\n" + event("MODIFIED", PRETTY) + event("DELETED", TRICKY) + " \r\n\t"
                + "{\"object\":" + TRICKY + ",\"type\":\"MODIFIED\"}\n"
                + event(
                        "BOOKMARK",
                        "{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"9\",\"annotations\":"
                                + "{\"k8s.io/initial-events-end\":\"true\"}}}")
                + "\n"
                + event("ERROR", "{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}") + "\n";

        assertThat(decodeAll(stream, chunk, buffer))
                .extracting(WatchDecoderTest::json)
                .containsExactly(
                        "ADDED " + TRICKY,
                        "MODIFIED " + PRETTY,
                        "DELETED " + TRICKY,
                        "MODIFIED " + TRICKY,
                        "BOOKMARK 9 " + Map.of("k8s.io/initial-events-end", "true"),
                        "ERROR 410");
    }

    @Test
    void decodedObjectsAreCompactWithTheirIdentityRead() {
        DynamicObject d = ((WatchEvent.Added<DynamicObject>)
                        decodeAll(event("ADDED", TRICKY), 1000, 64).get(0))
                .object();

        assertThat(d.isCompact()).isTrue();
        assertThat(d.key()).isEqualTo(ObjectKey.of("ns", "a}\"{"));
        assertThat(d.metadata().resourceVersion()).isEqualTo("7");
        assertThat(d.metadata().annotations()).containsEntry("x", "\\\"]éé😀");
        assertThat(d).isEqualTo(DynamicObject.parse(TRICKY));
    }

    @Test
    void aVeryLargeObjectIsKeptWhole() {
        char[] filler = new char[5 * 1024 * 1024];
        Arrays.fill(filler, 'x');
        String big = "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},\"data\":{\"f\":\"" + new String(filler)
                + "\"}}";

        List<WatchEvent<DynamicObject>> events = decodeAll(
                event("ADDED", big) + "\n" + event("ADDED", TRICKY) + "\n", 64 * 1024, RecordingInputStream.INITIAL);

        assertThat(events).extracting(WatchDecoderTest::json).containsExactly("ADDED " + big, "ADDED " + TRICKY);
    }

    @Test
    void aStreamEndingInsideAnEventFailsAsABrokenStream() {
        assertThatThrownBy(() -> decodeAll(event("ADDED", TRICKY) + "\n{\"type\":\"ADDED\",\"object\":{\"a\"", 10, 64))
                .isInstanceOf(JacksonIOException.class)
                .cause()
                .isInstanceOf(EOFException.class)
                .hasMessage("the watch body ended inside an event");
    }

    @Test
    void somethingOtherThanAnEventIsRejected() {
        assertThatThrownBy(() -> decodeAll("[1,2]", 10, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected '{' but got START_ARRAY");
        assertThatThrownBy(() -> decodeAll("{\"object\":{}}", 10, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("event without a type");
        assertThatThrownBy(() -> decodeAll(event("ADDED", "[1]"), 10, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("event object is not a JSON object");
    }
}
