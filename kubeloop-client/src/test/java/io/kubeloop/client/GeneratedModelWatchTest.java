package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.json.JsonInput;
import io.kubeloop.api.json.ModelDeserializer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * A watch of a kind whose records carry a generated reader ({@code @JsonDeserialize} naming a {@link
 * ModelDeserializer}) reads each event's object straight from its bytes, and decodes every event — those the
 * byte path hands back to Jackson too (coerced values, the object before the type, bookmarks, errors) — as a
 * watch of the same records read by Jackson's reflective binding does, whatever the chunking of the body.
 */
class GeneratedModelWatchTest {

    /** A kind with a reader as {@code kubeloop generate models} writes one. */
    @JsonDeserialize(using = Item.Reader.class)
    record Item(String apiVersion, String kind, ObjectMeta metadata, Long size, List<String> tags) {

        private static Item readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String apiVersion = null;
            String kind = null;
            ObjectMeta metadata = null;
            Long size = null;
            List<String> tags = null;
            for (String property = in.firstName(Item.class); property != null; property = in.nextName()) {
                switch (property) {
                    case "apiVersion" -> apiVersion = in.string();
                    case "kind" -> kind = in.string();
                    case "metadata" -> metadata = in.objectMeta();
                    case "size" -> size = in.int64();
                    case "tags" -> tags = in.list(String.class, JsonInput::string);
                    default -> in.skip(Item.class, property);
                }
            }
            return new Item(apiVersion, kind, metadata, size, tags);
        }

        /** The generated deserializer. */
        public static final class Reader extends ModelDeserializer<Item> {
            /** Jackson creates it. */
            public Reader() {
                super(Item.class);
            }

            @Override
            protected Item read(JsonInput in) {
                return readJson(in);
            }
        }
    }

    /** The same components, read by Jackson's reflective binding. */
    record PlainItem(String apiVersion, String kind, ObjectMeta metadata, Long size, List<String> tags) {}

    static String item(String name, String extra) {
        return "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Item\",\"metadata\":{\"namespace\":\"ns\",\"name\":\""
                + name + "\",\"resourceVersion\":\"" + name.length() + "\",\"labels\":{\"app\":\"web\"}}"
                + extra + "}";
    }

    private static final String STREAM = String.join(
            "\n",
            "{\"type\":\"ADDED\",\"object\":" + item("a", ",\"size\":1,\"tags\":[\"x\",\"y\"]") + "}",
            "{\"type\":\"MODIFIED\",\"object\":" + item("b", ",\"size\":\"2\"") + "}",
            "{\"object\":" + item("c", ",\"tags\":[]") + ", \"type\" : \"DELETED\"}",
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Item\",\"metadata\":{\"resourceVersion\":\"9\"}}}",
            "  {\"type\":\"ADDED\",\"object\":" + item("d\\u00e9\\\"é😀", ",\"unknown\":{\"deep\":[1]}") + "}  ",
            "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":410}}",
            "{\"type\":\"ADDED\",\"object\":" + item("e", ",\"size\":9223372036854775807") + ",\"later\":1}");

    static InputStream chunked(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    private static <T> List<WatchEvent<T>> decodeAll(Class<T> type, int chunk) {
        return decodeAll(type, STREAM.getBytes(StandardCharsets.UTF_8), chunk);
    }

    private static <T> List<WatchEvent<T>> decodeAll(Class<T> type, byte[] stream, int chunk) {
        WatchDecoder<T> decoder = new WatchDecoder<>(chunked(stream, chunk), new ObjectCodec<>(type), 64);
        List<WatchEvent<T>> out = new ArrayList<>();
        WatchEvent<T> e;
        while ((e = decoder.next()) != null) {
            out.add(e);
        }
        return out;
    }

    private static String describe(WatchEvent<?> e) {
        return switch (e) {
            case WatchEvent.Added<?> a -> "ADDED " + plain(a.object());
            case WatchEvent.Modified<?> m -> "MODIFIED " + plain(m.object());
            case WatchEvent.Deleted<?> d -> "DELETED " + plain(d.object());
            case WatchEvent.Bookmark<?> b -> "BOOKMARK " + b.resourceVersion();
            case WatchEvent.Error<?> err -> "ERROR " + err.status().code();
        };
    }

    static PlainItem plain(Object o) {
        return switch (o) {
            case Item i -> new PlainItem(i.apiVersion(), i.kind(), i.metadata(), i.size(), i.tags());
            case PlainItem p -> p;
            default -> throw new AssertionError(o);
        };
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @ValueSource(ints = {1, 7, 100, 100_000})
    void everyEventDecodesAsJacksonsReflectiveBindingDecodesIt(int chunk) {
        assertThat(new ObjectCodec<>(Item.class).model()).isNotNull();
        assertThat(new ObjectCodec<>(PlainItem.class).model()).isNull();
        List<String> generated = decodeAll(Item.class, chunk).stream()
                .map(GeneratedModelWatchTest::describe)
                .toList();
        List<String> reflective = decodeAll(PlainItem.class, chunk).stream()
                .map(GeneratedModelWatchTest::describe)
                .toList();
        assertThat(generated).hasSize(7).isEqualTo(reflective);
        assertThat(generated.get(1)).contains("size=2");
        assertThat(generated.get(4)).contains("name=dé\"é😀");
    }

    /**
     * Events read in place from the buffer, where the next one may be cut off anywhere (inside a string, inside a
     * number, between members) and may be far larger than the last: each still decodes whole, as Jackson's
     * reflective binding decodes it.
     */
    @ParameterizedTest(name = "chunks of {0} bytes")
    @ValueSource(ints = {13, 64, 150, 333, 1000, 4096})
    void eventsCutOffAnywhereInTheBufferDecodeWhole(int chunk) {
        StringBuilder stream = new StringBuilder();
        for (int n = 0; n < 40; n++) {
            StringBuilder tags = new StringBuilder();
            for (int t = 0; t < (n * 7) % 23; t++) {
                tags.append(t == 0 ? "" : ",")
                        .append("\"tag-")
                        .append(n)
                        .append('-')
                        .append(t)
                        .append('"');
            }
            String extra = ",\"tags\":[" + tags + "],\"size\":" + (123_456_789L * (n + 1));
            stream.append("{\"type\":\"")
                    .append(n % 3 == 0 ? "ADDED" : "MODIFIED")
                    .append("\",\"object\":")
                    .append(item("item-" + n, extra))
                    .append('}')
                    .append(n % 5 == 0 ? "\n" : "");
        }
        byte[] bytes = stream.toString().getBytes(StandardCharsets.UTF_8);
        List<String> generated = decodeAll(Item.class, bytes, chunk).stream()
                .map(GeneratedModelWatchTest::describe)
                .toList();
        List<String> reflective = decodeAll(PlainItem.class, bytes, chunk).stream()
                .map(GeneratedModelWatchTest::describe)
                .toList();
        assertThat(generated).hasSize(40).isEqualTo(reflective);
        assertThat(generated.get(39)).contains("size=" + 123_456_789L * 40).contains("tag-39-19");
    }

    @ParameterizedTest(name = "chunks of {0} bytes")
    @ValueSource(ints = {7, 100_000})
    void stringsRepeatedAcrossTheEventsReadFromBytesAreOneInstance(int chunk) {
        List<WatchEvent<Item>> events = decodeAll(Item.class, chunk);
        Item first = ((WatchEvent.Added<Item>) events.get(0)).object();
        Item fifth = ((WatchEvent.Added<Item>) events.get(4)).object();
        assertThat(fifth.kind()).isSameAs(first.kind());
        assertThat(fifth.metadata().labels().get("app"))
                .isSameAs(first.metadata().labels().get("app"));
    }

    @Test
    void theItemsOfAListDecodeAsJacksonsReflectiveBindingDecodesThem() {
        String bare = "{\"metadata\":{\"name\":\"bare\"},\"size\":3}"; // kind and apiVersion from the list
        String list =
                "{\"kind\":\"ItemList\",\"apiVersion\":\"example.com/v1\",\"metadata\":{\"resourceVersion\":\"5\"},"
                        + "\"items\":[" + item("a", ",\"size\":1,\"tags\":[\"x\"]") + "," + item("b", ",\"size\":\"2\"")
                        + ","
                        + bare + "," + item("c\\u00e9", "") + "]}";
        byte[] bytes = list.getBytes(StandardCharsets.UTF_8);
        ObjectList<Item> generated = new ObjectCodec<>(Item.class).readList(bytes);
        ObjectList<PlainItem> reflective = new ObjectCodec<>(PlainItem.class).readList(bytes);
        assertThat(generated.items().stream()
                        .map(GeneratedModelWatchTest::plain)
                        .toList())
                .hasSize(4)
                .isEqualTo(reflective.items());
        assertThat(generated.items().get(2).kind()).isEqualTo("Item");
        assertThat(generated.items().get(2).apiVersion()).isEqualTo("example.com/v1");
        assertThat(generated.items().get(3).kind())
                .isSameAs(generated.items().get(0).kind());
    }
}
