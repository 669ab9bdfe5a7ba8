package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.GeneratedModelWatchTest.Item;
import io.kubeloop.client.GeneratedModelWatchTest.PlainItem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

/**
 * A single-object reply (get, create, update, patch) of a kind with a generated reader decodes as Jackson's
 * reflective binding decodes the same bytes — also the replies the byte path hands back to Jackson, also after a
 * reply that failed to decode, and with many replies read at once by one codec, whose decoders are kept between
 * replies.
 */
class SingleObjectReplyTest {

    private static final List<String> REPLIES = List.of(
            GeneratedModelWatchTest.item("a", ",\"size\":1,\"tags\":[\"x\",\"y\"]"),
            GeneratedModelWatchTest.item("b", ",\"size\":\"2\""),
            "  " + GeneratedModelWatchTest.item("d\\u00e9\\\"é😀", ",\"unknown\":{\"deep\":[1]}") + "\n",
            GeneratedModelWatchTest.item("e", ",\"tags\":[]"));

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static PlainItem plain(Item i) {
        return new PlainItem(i.apiVersion(), i.kind(), i.metadata(), i.size(), i.tags());
    }

    @Test
    void repliesDecodeAsJacksonDecodesThem() {
        ObjectCodec<Item> generated = new ObjectCodec<>(Item.class);
        ObjectCodec<PlainItem> jackson = new ObjectCodec<>(PlainItem.class);
        for (int round = 0; round < 3; round++) {
            for (String reply : REPLIES) {
                assertThat(plain(generated.read(utf8(reply)))).isEqualTo(jackson.read(utf8(reply)));
            }
        }
    }

    @Test
    void aReplyThatFailsLeavesTheCodecReadingTheNext() {
        ObjectCodec<Item> generated = new ObjectCodec<>(Item.class);
        ObjectCodec<PlainItem> jackson = new ObjectCodec<>(PlainItem.class);
        for (String reply : REPLIES) {
            assertThatThrownBy(() -> generated.read(utf8(reply.substring(0, reply.length() / 2))))
                    .isInstanceOf(JacksonException.class);
            assertThat(plain(generated.read(utf8(reply)))).isEqualTo(jackson.read(utf8(reply)));
        }
    }

    @Test
    void repliesReadAtOnceByOneCodecDecodeEachAsAlone() throws Exception {
        ObjectCodec<Item> generated = new ObjectCodec<>(Item.class);
        ObjectCodec<PlainItem> jackson = new ObjectCodec<>(PlainItem.class);
        int threads = ReplyReaders.KEPT * 2;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        String reply = REPLIES.get((i + offset) % REPLIES.size());
                        if (!plain(generated.read(utf8(reply))).equals(jackson.read(utf8(reply)))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        }
    }
}
