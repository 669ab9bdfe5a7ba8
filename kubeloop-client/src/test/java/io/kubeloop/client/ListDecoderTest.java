package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;

/**
 * A list reply decoded as it arrives ({@link ListDecoder}): the metadata is known when the stream is opened,
 * before the items; the items equal what the whole-body decoding gives, however the bytes are split.
 */
class ListDecoderTest {

    private static final ObjectCodec<DynamicObject> CODEC = new ObjectCodec<>(DynamicObject.class);

    private static String item(int i) {
        return "{\"metadata\":{\"name\":\"cm-" + i + "\",\"namespace\":\"ns\",\"resourceVersion\":\"" + (100 + i)
                + "\",\"labels\":{\"k\":\"v\\\"q\"}},\"data\":{\"x\":[1,2.5e3,true,null,{\"deep\":\""
                + "y".repeat(i * 7)
                + "\"}]}}";
    }

    private static String list(int n, String metadata) {
        StringBuilder sb = new StringBuilder("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":")
                .append(metadata)
                .append(",\"items\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? ",\n " : "").append(item(i));
        }
        return sb.append("]}\n").toString();
    }

    /** A body that hands out at most {@code step} bytes per read, and says whether it was closed. */
    private static final class Trickle extends InputStream {
        private final ByteArrayInputStream in;
        private final int step;
        final AtomicBoolean closed = new AtomicBoolean();

        Trickle(String body, int step) {
            this.in = new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
            this.step = step;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, Math.min(len, step));
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    private static ApiResponse response(InputStream body) {
        return new ApiResponse(
                ApiRequest.get(URI.create("https://server/api/v1/configmaps?limit=500")), 200, Map.of(), body);
    }

    @ParameterizedTest(name = "{0} bytes per read")
    @ValueSource(ints = {1, 7, 300, 1 << 20})
    void theMetadataIsKnownBeforeTheItemsAndTheItemsEqualTheWholeBodyDecoding(int step) {
        String body = list(300, "{\"resourceVersion\":\"42\",\"continue\":\"tok\",\"remainingItemCount\":7}");
        Trickle in = new Trickle(body, step);
        ListStream<DynamicObject> stream = ListDecoder.open(response(in), CODEC);
        assertThat(stream.resourceVersion()).isEqualTo("42");
        assertThat(stream.continueToken()).isEqualTo("tok");
        assertThat(stream.remainingItemCount()).isEqualTo(7L);
        assertThat(in.in.available()).as("the items are not read yet").isGreaterThan(body.length() / 2);

        ObjectList<DynamicObject> page = stream.read();
        ObjectList<DynamicObject> whole = CODEC.parseList(body.getBytes(StandardCharsets.UTF_8));
        assertThat(page.items()).hasSize(300).containsExactlyElementsOf(whole.items());
        assertThat(page.items().get(5).kind()).isEqualTo("ConfigMap");
        assertThat(page.items().get(5).apiVersion()).isEqualTo("v1");
        assertThat(ObjectAccess.name(page.items().get(5))).isEqualTo("cm-5");
        assertThat(ObjectAccess.resourceVersion(page.items().get(5))).isEqualTo("105");
        assertThat(page).isEqualTo(new ObjectList<>(whole.items(), "42", "tok", 7L));
        assertThat(in.closed).isTrue();
        assertThatThrownBy(stream::read).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void itemsBeforeTheMetadataAndKindAfterTheItemsAreReadWhole() {
        String body = "{\"items\":[" + item(1) + "," + item(2) + "],\"metadata\":{\"resourceVersion\":\"9\"},"
                + "\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\"}";
        ListStream<DynamicObject> stream = ListDecoder.open(response(new Trickle(body, 5)), CODEC);
        assertThat(stream.resourceVersion()).isEqualTo("9");
        assertThat(stream.hasMore()).isFalse();
        List<DynamicObject> items = stream.read().items();
        assertThat(items).extracting(ObjectAccess::name).containsExactly("cm-1", "cm-2");
        assertThat(items).extracting(DynamicObject::kind).containsOnly("ConfigMap");
        assertThat(items)
                .containsExactlyElementsOf(
                        CODEC.parseList(body.getBytes(StandardCharsets.UTF_8)).items());
    }

    @Test
    void anEscapedMemberNameAndAnEmptyListGoThroughJackson() {
        String escaped =
                "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"meta\\u0064ata\":{\"resourceVersion\":\"5\"},"
                        + "\"items\":[" + item(3) + "]}";
        ListStream<DynamicObject> stream = ListDecoder.open(response(new Trickle(escaped, 3)), CODEC);
        assertThat(stream.resourceVersion()).isEqualTo("5");
        assertThat(stream.read().items()).extracting(ObjectAccess::name).containsExactly("cm-3");

        ListStream<DynamicObject> empty = ListDecoder.open(
                response(new Trickle(
                        "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"6\"},\"items\":[ ]}",
                        2)),
                CODEC);
        assertThat(empty.read()).isEqualTo(new ObjectList<>(List.of(), "6", null, null));
    }

    @Test
    void aMalformedItemIsJacksonsErrorAndACutOffReplyATransportError() {
        String malformed =
                list(2, "{\"resourceVersion\":\"1\"}").replace("\"data\":{\"x\":[1,", "\"data\":{\"x\":[1,,");
        ListStream<DynamicObject> bad = ListDecoder.open(response(new Trickle(malformed, 64)), CODEC);
        assertThatThrownBy(bad::read).isInstanceOf(JacksonException.class);

        String full = list(3, "{\"resourceVersion\":\"1\",\"continue\":\"c\"}");
        Trickle cut = new Trickle(full.substring(0, full.length() - 200), 64);
        ListStream<DynamicObject> truncated = ListDecoder.open(response(cut), CODEC);
        assertThat(truncated.continueToken()).isEqualTo("c");
        assertThatThrownBy(truncated::read)
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("ended early");
        assertThat(cut.closed).isTrue();
    }

    @Test
    void theWholeBodyDecodingAgreesWithTheStreamingParser() {
        byte[] body = list(50, "{\"resourceVersion\":\"77\"}").getBytes(StandardCharsets.UTF_8);
        ObjectList<DynamicObject> scanned = CODEC.readList(body);
        ObjectList<DynamicObject> parsed = CODEC.parseList(body);
        assertThat(scanned).isEqualTo(parsed);
        assertThat(scanned.items().get(49).at("/data/x/4/deep").orElseThrow().asString())
                .isEqualTo("y".repeat(49 * 7));
    }
}
