package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
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
    record Box(
            String kind,
            Tag first,
            Tag second,
            List<Tag> tags,
            Note note,
            Note other,
            List<Tree> trees,
            List<Kept> kept) {

        private static final JsonFields FIELDS =
                JsonFields.of(Box.class, "kind", "first", "second", "tags", "note", "other", "trees", "kept");

        private static final Function<?, ?>[] READERS = {
            (Function<JsonInput, Tag>) Tag::readJson,
            (Function<JsonInput, Note>) Note::readJson,
            (Function<JsonInput, Tree>) Tree::readJson,
            (Function<JsonInput, Kept>) Kept::readJson
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
            List<Tree> trees = null;
            List<Kept> kept = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> kind = in.string();
                    case 1 -> first = in.sharedRecord(READERS, 0);
                    case 2 -> second = in.sharedRecord(READERS, 0);
                    case 3 -> tags = in.list(Tag.class, e -> e.sharedRecord(READERS, 0));
                    case 4 -> note = in.record(READERS, 1);
                    case 5 -> other = in.record(READERS, 1);
                    case 6 -> trees = in.list(Tree.class, e -> e.sharedRecord(READERS, 2));
                    case 7 -> kept = in.list(Kept.class, e -> e.sharedRecord(READERS, 3));
                    default -> in.skipField(FIELDS);
                }
            }
            return new Box(kind, first, second, tags, note, other, trees, kept);
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

    /** The same components as Tag, read without asking for sharing. */
    record Note(String name, Long size) {
        static Note readJson(JsonInput in) {
            Tag tag = Tag.readJson(in);
            return tag == null ? null : new Note(tag.name(), tag.size());
        }
    }

    /** A record with a JSON tree, which may be a scalar or an object (which can be changed). */
    record Tree(JsonNode tree) {
        private static final JsonFields FIELDS = JsonFields.of(Tree.class, "tree");

        static Tree readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            JsonNode tree = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> tree = in.value(JsonNode.class);
                    default -> in.skipField(FIELDS);
                }
            }
            return new Tree(tree);
        }
    }

    /** A record that keeps unknown fields in a map. */
    record Kept(String name, Map<String, Object> unknown) {
        private static final JsonFields FIELDS = JsonFields.of(Kept.class, "name");

        static Kept readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String name = null;
            Map<String, Object> unknown = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> name = in.string();
                    default -> unknown = in.keep(unknown, in.fieldName());
                }
            }
            return new Kept(name, unknown);
        }

        @JsonAnySetter
        void set(String key, Object value) {
            throw new UnsupportedOperationException(); // Jackson is not asked to read it here
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
    void recordsHoldingWhatCanBeChangedAreNotShared() {
        Box box = fromBytesOnly(
                "{\"trees\":[{\"tree\":{\"a\":1}},{\"tree\":{\"a\":1}},{\"tree\":\"s\"},{\"tree\":\"s\"}],"
                        + "\"kept\":[{\"name\":\"k\",\"x\":1},{\"name\":\"k\",\"x\":1},{\"name\":\"k\"},{\"name\":\"k\"}]}");
        List<Tree> trees = box.trees();
        assertThat(trees.get(1)).as("a JSON object").isEqualTo(trees.get(0)).isNotSameAs(trees.get(0));
        assertThat(trees.get(3)).as("a JSON string").isSameAs(trees.get(2));
        List<Kept> kept = box.kept();
        assertThat(kept.get(1)).as("unknown fields kept").isEqualTo(kept.get(0)).isNotSameAs(kept.get(0));
        assertThat(kept.get(3)).as("none kept").isSameAs(kept.get(2));
    }

    private Box fromBytesOnly(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Box box = reader.read(JsonBytesReader.modelOf(Box.class).orElseThrow(), bytes, 0, bytes.length);
        assertThat(box).as(json).isNotNull();
        return box;
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

    /**
     * A stream whose records come from several tables (the built-in models have one per package) keeps each
     * table's statistics while it alternates between them, so a reader switched off stays off.
     */
    @Test
    void statisticsOfSeveralTablesOfOneStreamAreKeptApart() {
        SharedRecords shared = new SharedRecords();
        Function<?, ?>[] apps = {Function.identity()};
        Function<?, ?>[] core = {Function.identity()};
        byte[] json = "{}".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < SharedRecords.TRIAL; i++) {
            assertThat(shared.worthLooking(apps, 0)).isTrue();
            assertThat(shared.find(apps, 0, json, 0, 2, 7)).isNull(); // never found
            assertThat(shared.worthLooking(core, 0)).isTrue();
            if (i == 0) {
                shared.put(core, 0, json, 0, 2, 7, "kept");
            } else {
                assertThat(shared.find(core, 0, json, 0, 2, 7)).isEqualTo("kept");
            }
        }
        assertThat(shared.worthLooking(apps, 0)).as("apps' reader: never found").isFalse();
        assertThat(shared.worthLooking(core, 0))
                .as("core's reader: found every time")
                .isTrue();
        assertThat(shared.worthLooking(apps, 0))
                .as("still off after core's lookup")
                .isFalse();
        for (int t = 0; t < SharedRecords.STATS; t++) { // more tables than statistics are kept for
            assertThat(shared.worthLooking(new Function<?, ?>[] {Function.identity()}, 0))
                    .isTrue();
        }
        assertThat(shared.worthLooking(apps, 0))
                .as("its statistics were dropped: it starts again")
                .isTrue();
    }
}
