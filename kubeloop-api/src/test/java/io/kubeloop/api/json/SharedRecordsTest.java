package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Small nested records of immutable components read from bytes by one {@link JsonBytesReader} are shared:
 * an object whose bytes equal those of one read before by the same reader is the same record; over a parser,
 * or for a reader that does not ask for sharing, equal objects stay separate; large objects and readers whose
 * objects seldom repeat are not looked up.
 */
class SharedRecordsTest {

    /** A kind as {@code kubeloop generate models} writes one: Tag is shared, Note (say, with a tree) is not. */
    @JsonDeserialize(using = Box.Reader.class)
    record Box(String kind, Tag first, Tag second, List<Tag> tags, Note note, Note other) {

        private static final JsonFields FIELDS =
                JsonFields.of(Box.class, "kind", "first", "second", "tags", "note", "other");

        private static final Function<?, ?>[] READERS = {
            (Function<JsonInput, Tag>) Tag::readJson, (Function<JsonInput, Note>) Note::readJson
        };

        static Box readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String kind = null;
            Tag first = null;
            Tag second = null;
            List<Tag> tags = null;
            Note note = null;
            Note other = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> kind = in.string();
                    case 1 -> first = in.sharedRecord(READERS, 0);
                    case 2 -> second = in.sharedRecord(READERS, 0);
                    case 3 -> tags = in.list(Tag.class, e -> e.sharedRecord(READERS, 0));
                    case 4 -> note = in.record(READERS, 1);
                    case 5 -> other = in.record(READERS, 1);
                    default -> in.skipField(FIELDS);
                }
            }
            return new Box(kind, first, second, tags, note, other);
        }

        /** The deserializer. */
        public static final class Reader extends ModelDeserializer<Box> {
            /** Jackson creates it. */
            public Reader() {
                super(Box.class);
            }

            @Override
            protected Box read(JsonInput in) {
                return readJson(in);
            }
        }
    }

    record Tag(String name, Long size) {
        private static final JsonFields FIELDS = JsonFields.of(Tag.class, "name", "size");

        static Tag readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String name = null;
            Long size = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> name = in.string();
                    case 1 -> size = in.int64();
                    default -> in.skipField(FIELDS);
                }
            }
            return new Tag(name, size);
        }
    }

    record Note(String name, Long size) {
        private static final JsonFields FIELDS = JsonFields.of(Note.class, "name", "size");

        static Note readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String name = null;
            Long size = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> name = in.string();
                    case 1 -> size = in.int64();
                    default -> in.skipField(FIELDS);
                }
            }
            return new Note(name, size);
        }
    }

    private final JsonBytesReader reader = new JsonBytesReader(KubeJson.mapper());

    private Box fromBytes(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Box box = reader.read(JsonBytesReader.modelOf(Box.class).orElseThrow(), bytes, 0, bytes.length);
        assertThat(box).as(json).isNotNull().isEqualTo(KubeJson.mapper().readValue(json, Box.class));
        return box;
    }

    private static final String A = "{\"name\":\"a\",\"size\":1}";

    @Test
    void equalObjectsInOneObjectAndAcrossObjectsOfTheStreamAreOneRecord() {
        Box box = fromBytes("{\"kind\":\"Box\",\"first\":" + A + ",\"second\":" + A + ",\"tags\":[" + A
                + ",{\"name\":\"b\"},null]}");
        assertThat(box.second()).isSameAs(box.first());
        assertThat(box.tags().get(0)).isSameAs(box.first());
        assertThat(box.tags().get(1)).isEqualTo(new Tag("b", null));
        assertThat(box.tags().get(2)).isNull();

        Box next = fromBytes("{\"kind\":\"Box\",\"tags\":[{\"name\":\"b\"}],\"first\":" + A + "}");
        assertThat(next.first()).isSameAs(box.first());
        assertThat(next.tags().get(0)).isSameAs(box.tags().get(1));
    }

    @Test
    void overAParserEqualObjectsStaySeparate() {
        Box box = KubeJson.mapper().readValue("{\"first\":" + A + ",\"second\":" + A + "}", Box.class);
        assertThat(box.second()).isEqualTo(box.first()).isNotSameAs(box.first());
    }

    @Test
    void otherBytesAnotherReaderOrAReaderThatDoesNotAskAreNotShared() {
        Box box = fromBytes(
                "{\"first\":" + A + ",\"second\":{\"size\":1,\"name\":\"a\"},\"note\":" + A + ",\"other\":" + A + "}");
        assertThat(box.second()).isEqualTo(box.first()).isNotSameAs(box.first());
        assertThat(box.other()).isEqualTo(box.note()).isNotSameAs(box.note());

        JsonBytesReader another = new JsonBytesReader(KubeJson.mapper());
        byte[] bytes = ("{\"first\":" + A + "}").getBytes(StandardCharsets.UTF_8);
        Box elsewhere = another.read(JsonBytesReader.modelOf(Box.class).orElseThrow(), bytes, 0, bytes.length);
        assertThat(elsewhere.first()).as("another stream's table").isNotSameAs(box.first());
    }

    @Test
    void stringsWithEscapedQuotesAndBracketsAreReadWholeAndShared() {
        String tricky = "{\"name\":\"a\\\"}]{\\\\\",\"size\":2}";
        Box box = fromBytes("{\"first\":" + tricky + ",\"second\":" + tricky + ",\"tags\":[" + tricky + "]}");
        assertThat(box.first().name()).isEqualTo("a\"}]{\\");
        assertThat(box.second()).isSameAs(box.first());
        assertThat(box.tags()).containsExactly(box.first());
    }

    @Test
    void objectsLargerThanTheLimitAreNotShared() {
        String large = "{\"name\":\"" + "x".repeat(SharedRecords.MAX_BYTES) + "\"}";
        Box box = fromBytes("{\"first\":" + large + ",\"second\":" + large + "}");
        assertThat(box.second()).isEqualTo(box.first()).isNotSameAs(box.first());
    }

    @Test
    void anObjectTheReaderHandsBackToJacksonIsNotRemembered() {
        String coerced = "{\"first\":{\"name\":\"c\",\"size\":\"3\"}}"; // a string for a number
        byte[] bytes = coerced.getBytes(StandardCharsets.UTF_8);
        ModelDeserializer<Box> model = JsonBytesReader.modelOf(Box.class).orElseThrow();
        assertThat(reader.read(model, bytes, 0, bytes.length))
                .as("Jackson reads it")
                .isNull();
        assertThat(reader.read(model, bytes, 0, bytes.length))
                .as("and still does")
                .isNull();
        assertThat(KubeJson.mapper().readValue(coerced, Box.class).first()).isEqualTo(new Tag("c", 3L));
        assertThat(fromBytes("{\"first\":{\"name\":\"c\",\"size\":3}}").first()).isEqualTo(new Tag("c", 3L));
    }

    @Test
    void aReaderWhoseObjectsSeldomRepeatIsNoLongerLookedUp() {
        SharedRecords shared = new SharedRecords();
        Function<?, ?>[] table = {Function.identity(), Function.identity()};
        byte[] json = "{}{}".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < SharedRecords.TRIAL; i++) {
            assertThat(shared.worthLooking(table, 0)).isTrue();
            assertThat(shared.find(table, 0, json, 0, 2, 7)).isNull(); // never found
            assertThat(shared.worthLooking(table, 1)).isTrue();
            if (i == 0) {
                shared.put(table, 1, json, 0, 2, 7, "kept");
            } else {
                assertThat(shared.find(table, 1, json, 2, 4, 7)).isEqualTo("kept"); // found every time
            }
        }
        assertThat(shared.worthLooking(table, 0)).as("never found").isFalse();
        assertThat(shared.worthLooking(table, 0)).isFalse();
        assertThat(shared.worthLooking(table, 1)).as("found every time").isTrue();
        assertThat(shared.find(new Function<?, ?>[] {Function.identity(), Function.identity()}, 1, json, 0, 2, 7))
                .as("another kind's table")
                .isNull();
    }
}
