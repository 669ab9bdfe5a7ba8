package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.GeneratedModelWatchTest.Item;
import io.kubeloop.client.GeneratedModelWatchTest.PlainItem;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;

/**
 * A list reply of a kind whose records carry a generated reader is decoded as it arrives ({@link ListDecoder}):
 * its metadata is known before its items, and each item — read in place from the buffer, wherever the reads cut
 * it off — equals what Jackson's reflective binding of the same record reads from the whole body, including
 * items the generated reader hands back to Jackson (coerced values) and bare items that take the list's kind
 * and apiVersion.
 */
class GeneratedModelListTest {

    private static final ObjectCodec<Item> GENERATED = new ObjectCodec<>(Item.class);
    private static final ObjectCodec<PlainItem> REFLECTIVE = new ObjectCodec<>(PlainItem.class);

    private static String list(int n, String head, String tail) {
        StringBuilder sb = new StringBuilder("{").append(head).append("\"items\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? ",\n " : "");
            StringBuilder tags = new StringBuilder();
            for (int t = 0; t < (i * 7) % 23; t++) {
                tags.append(t == 0 ? "" : ",")
                        .append("\"tag-")
                        .append(i)
                        .append('-')
                        .append(t)
                        .append('"');
            }
            String extra = ",\"tags\":[" + tags + "],\"size\":"
                    + (i % 11 == 5 ? "\"" + i + "\"" : Long.toString(123_456_789L * (i + 1)))
                    + (i % 13 == 0 ? ",\"unknown\":{\"deep\":[1,{\"x\":null}]}" : "");
            if (i % 17 == 3) {
                sb.append("{\"metadata\":{\"name\":\"bare-")
                        .append(i)
                        .append("\"}")
                        .append(extra)
                        .append('}');
            } else {
                sb.append(GeneratedModelWatchTest.item(i % 19 == 7 ? "item-\\u00e9\\\"" + i : "item-" + i, extra));
            }
        }
        return sb.append("]").append(tail).append("}\n").toString();
    }

    private static final String HEAD = "\"kind\":\"ItemList\",\"apiVersion\":\"example.com/v1\","
            + "\"metadata\":{\"resourceVersion\":\"42\",\"continue\":\"tok\",\"remainingItemCount\":7},";

    private static ApiResponse response(InputStream body) {
        return new ApiResponse(
                ApiRequest.get(URI.create("https://server/apis/example.com/v1/items?limit=500")), 200, Map.of(), body);
    }

    private static List<PlainItem> reflective(String body) {
        return REFLECTIVE.parseList(body.getBytes(StandardCharsets.UTF_8)).items();
    }

    private static List<PlainItem> plain(List<Item> items) {
        return items.stream().map(GeneratedModelWatchTest::plain).toList();
    }

    @ParameterizedTest(name = "{0} bytes per read")
    @ValueSource(ints = {1, 13, 333, 4096, 1 << 20})
    void itemsReadAsTheyArriveEqualJacksonsReflectiveBindingOfTheWholeBody(int step) {
        String body = list(200, HEAD, "");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        InputStream in = GeneratedModelWatchTest.chunked(bytes, step);
        ListStream<Item> stream = ListDecoder.open(response(in), GENERATED);
        assertThat(stream.resourceVersion()).isEqualTo("42");
        assertThat(stream.continueToken()).isEqualTo("tok");
        assertThat(stream.remainingItemCount()).isEqualTo(7L);
        if (step < bytes.length / 2) {
            assertThat(bytes.length - readSoFar(in, bytes.length))
                    .as("the items are not read yet")
                    .isGreaterThan(bytes.length / 2);
        }

        ObjectList<Item> page = stream.read();
        assertThat(page.resourceVersion()).isEqualTo("42");
        assertThat(plain(page.items())).hasSize(200).isEqualTo(reflective(body));
        Item bare = page.items().get(3);
        assertThat(bare.metadata().name()).isEqualTo("bare-3");
        assertThat(bare.kind()).isEqualTo("Item");
        assertThat(bare.apiVersion()).isEqualTo("example.com/v1");
        assertThat(page.items().get(5).size()).isEqualTo(5L);
        assertThat(page.items().get(7).metadata().name()).isEqualTo("item-é\"7");
        assertThat(page.items().get(199).tags()).contains("tag-199-" + ((199 * 7) % 23 - 1));
        assertThat(page.items().get(150).kind()).isSameAs(page.items().get(1).kind());
    }

    private static int readSoFar(InputStream in, int total) {
        try {
            return total - in.available();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theWholeBodyDecodingEqualsTheStreamingParser() {
        String body = list(60, HEAD, "");
        assertThat(plain(GENERATED
                        .readList(body.getBytes(StandardCharsets.UTF_8))
                        .items()))
                .isEqualTo(plain(GENERATED
                        .parseList(body.getBytes(StandardCharsets.UTF_8))
                        .items()))
                .isEqualTo(reflective(body));
    }

    @Test
    void aListWhoseKindComesAfterItsItemsIsReadWholeAndItsBareItemsTakeThatKind() {
        String body = list(
                20,
                "\"metadata\":{\"resourceVersion\":\"9\"},",
                ",\"kind\":\"ItemList\",\"apiVersion\":\"example.com/v1\"");
        ListStream<Item> stream = ListDecoder.open(
                response(GeneratedModelWatchTest.chunked(body.getBytes(StandardCharsets.UTF_8), 5)), GENERATED);
        assertThat(stream.resourceVersion()).isEqualTo("9");
        List<Item> items = stream.read().items();
        assertThat(plain(items)).hasSize(20).isEqualTo(reflective(body));
        assertThat(items.get(3).kind()).isEqualTo("Item");
        assertThat(items.get(3).apiVersion()).isEqualTo("example.com/v1");
    }

    @Test
    void aMalformedItemIsJacksonsErrorAndACutOffReplyATransportError() {
        String malformed = list(30, HEAD, "").replace("\"tag-20-0\",", "\"tag-20-0\",,");
        assertThat(malformed).contains(",,");
        ListStream<Item> bad = ListDecoder.open(
                response(GeneratedModelWatchTest.chunked(malformed.getBytes(StandardCharsets.UTF_8), 64)), GENERATED);
        assertThatThrownBy(bad::read).isInstanceOf(JacksonException.class);

        String full = list(30, HEAD, "");
        byte[] cut = full.substring(0, full.length() - 200).getBytes(StandardCharsets.UTF_8);
        ListStream<Item> truncated = ListDecoder.open(response(GeneratedModelWatchTest.chunked(cut, 64)), GENERATED);
        assertThatThrownBy(truncated::read)
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("ended early");
    }
}
