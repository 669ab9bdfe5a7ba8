package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.internal.StringTable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reader written as {@code kubeloop generate models} writes them (a {@link ModelDeserializer} over
 * {@link JsonInput}) reads what Jackson's reflective binding reads from the same JSON, fails where it
 * fails, and shares strings through the read's string table.
 */
class JsonInputTest {

    /** The shape of a generated kind: the fixed three, then typed fields. */
    @JsonDeserialize(using = Thing.Reader.class)
    record Thing(
            String apiVersion,
            String kind,
            ObjectMeta metadata,
            Integer count,
            Long size,
            Double ratio,
            Boolean enabled,
            Instant since,
            List<String> tags,
            Map<String, List<Integer>> ports,
            Object anything,
            Phase phase,
            Integer aVeryLongPropertyName) {

        /** The properties' numbers, as a generated record declares them. */
        private static final JsonFields FIELDS = JsonFields.of(
                Thing.class,
                "apiVersion",
                "kind",
                "metadata",
                "count",
                "size",
                "ratio",
                "enabled",
                "since",
                "tags",
                "ports",
                "anything",
                "phase",
                "aVeryLongPropertyName");

        static Thing readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            String apiVersion = null;
            String kind = null;
            ObjectMeta metadata = null;
            Integer count = null;
            Long size = null;
            Double ratio = null;
            Boolean enabled = null;
            Instant since = null;
            List<String> tags = null;
            Map<String, List<Integer>> ports = null;
            Object anything = null;
            Phase phase = null;
            Integer aVeryLongPropertyName = null;
            for (int field = in.firstField(FIELDS); field != JsonInput.END; field = in.nextField(FIELDS)) {
                switch (field) {
                    case 0 -> apiVersion = in.string();
                    case 1 -> kind = in.string();
                    case 2 -> metadata = in.objectMeta();
                    case 3 -> count = in.int32();
                    case 4 -> size = in.int64();
                    case 5 -> ratio = in.float64();
                    case 6 -> enabled = in.bool();
                    case 7 -> since = in.timestamp();
                    case 8 -> tags = in.list(String.class, JsonInput::string);
                    case 9 -> ports = in.map(List.class, e -> e.list(Integer.class, JsonInput::int32));
                    case 10 -> anything = in.value(Object.class);
                    case 11 -> phase = Phase.readJson(in);
                    case 12 -> aVeryLongPropertyName = in.int32();
                    default -> in.skipField(FIELDS);
                }
            }
            return new Thing(
                    apiVersion,
                    kind,
                    metadata,
                    count,
                    size,
                    ratio,
                    enabled,
                    since,
                    tags,
                    ports,
                    anything,
                    phase,
                    aVeryLongPropertyName);
        }

        /** The deserializer. */
        public static final class Reader extends ModelDeserializer<Thing> {
            /** Jackson creates it. */
            public Reader() {
                super(Thing.class);
            }

            @Override
            protected Thing read(JsonInput in) {
                return readJson(in);
            }
        }
    }

    /** A string enum, read as a generated reader reads one. */
    enum Phase {
        @JsonProperty("Running")
        RUNNING,
        @JsonProperty("Done")
        DONE;

        static Phase readJson(JsonInput in) {
            String text = in.text();
            if (text != null) {
                switch (text) {
                    case "Running" -> {
                        return RUNNING;
                    }
                    case "Done" -> {
                        return DONE;
                    }
                    default -> {}
                }
            }
            return in.value(Phase.class);
        }
    }

    /** The same record without the reader: Jackson's reflective binding. */
    record Plain(
            String apiVersion,
            String kind,
            ObjectMeta metadata,
            Integer count,
            Long size,
            Double ratio,
            Boolean enabled,
            Instant since,
            List<String> tags,
            Map<String, List<Integer>> ports,
            Object anything,
            Phase phase,
            Integer aVeryLongPropertyName) {}

    private static final String FULL = """
            {"apiVersion": "example.com/v1", "kind": "Thing", "unknown": {"deep": [1, {"x": null}]},
             "metadata": {"name": "a", "generateName": "a-", "namespace": "ns", "uid": "u-1",
               "resourceVersion": "42", "generation": 7, "creationTimestamp": "2024-01-02T03:04:05Z",
               "deletionTimestamp": "2024-01-02T03:04:05.123456+02:00", "deletionGracePeriodSeconds": 30,
               "labels": {"app": "web", "tier": null, "n": 5}, "annotations": {},
               "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "u-2",
                 "controller": true, "blockOwnerDeletion": false, "extra": 1}, null],
               "finalizers": ["f/one", null], "selfLink": "/x", "clusterName": "ignored",
               "managedFields": [{"manager": "m", "operation": "Apply", "apiVersion": "v1",
                 "time": "2024-01-02T03:04:05Z", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:metadata": {".": {}}}, "subresource": "status"}]},
             "count": 3, "size": 12345678901, "ratio": 1.5, "enabled": true,
             "since": "2024-02-03T04:05:06.5Z", "tags": ["a", null, "b"],
             "ports": {"http": [80, 8080], "none": null, "empty": []},
             "anything": {"k": [1, "two", 3.0, false, null]}, "phase": "Done", "aVeryLongPropertyName": 9}
            """;

    @Test
    void readsEveryKindOfFieldAsJacksonsReflectiveBindingDoes() {
        Thing generated = KubeJson.mapper().readValue(FULL, Thing.class);
        Plain reflective = KubeJson.mapper().readValue(FULL, Plain.class);
        assertThat(generated).usingRecursiveComparison().isEqualTo(reflective);
        assertThat(generated.metadata()).isEqualTo(reflective.metadata());
        assertThat(generated.metadata().ownerReferences()).hasSize(2);
        assertThat(generated.ports()).containsKey("none").containsEntry("none", null);
    }

    @Test
    void nullsAndEmptyObjectsReadAsJacksonReadsThem() {
        for (String json : List.of(
                "{}",
                "{\"metadata\": null, \"count\": null, \"tags\": null, \"ports\": null, \"anything\": null}",
                "{\"metadata\": {}, \"tags\": [], \"ports\": {}}")) {
            assertThat(KubeJson.mapper().readValue(json, Thing.class))
                    .as(json)
                    .usingRecursiveComparison()
                    .isEqualTo(KubeJson.mapper().readValue(json, Plain.class));
        }
        assertThat(KubeJson.mapper().readValue("null", Thing.class)).isNull();
    }

    @Test
    void scalarsOfTheWrongJsonTypeAreCoercedAsJacksonCoercesThem() {
        String json = "{\"count\": \"12\", \"size\": 4.0, \"ratio\": 2, \"enabled\": \"true\", \"kind\": 5}";
        assertThat(KubeJson.mapper().readValue(json, Thing.class))
                .usingRecursiveComparison()
                .isEqualTo(KubeJson.mapper().readValue(json, Plain.class));
    }

    @Test
    void aValueOfTheWrongShapeFailsWithJacksonsMismatchedInputException() {
        for (String json : List.of(
                "{\"metadata\": \"text\"}",
                "{\"tags\": {\"a\": 1}}",
                "{\"ports\": [1]}",
                "[1]",
                "{\"count\": 9999999999}")) {
            assertThatThrownBy(() -> KubeJson.mapper().readValue(json, Plain.class))
                    .as("Jackson, " + json)
                    .isInstanceOf(JacksonException.class);
            assertThatThrownBy(() -> KubeJson.mapper().readValue(json, Thing.class))
                    .as(json)
                    .isInstanceOf(JacksonException.class);
        }
        assertThatThrownBy(() -> KubeJson.mapper().readValue("{\"tags\": {\"a\": 1}}", Thing.class))
                .isInstanceOf(MismatchedInputException.class);
        assertThatThrownBy(() -> KubeJson.mapper().readValue("{\"phase\": \"Unheard\"}", Thing.class))
                .as("a text no constant has: Jackson's enum deserializer")
                .isInstanceOf(InvalidFormatException.class)
                .hasMessageContaining("Unheard");
    }

    @Test
    void unknownPropertiesFailOnlyWhenTheReadAsksForIt() {
        String json = "{\"kind\": \"Thing\", \"surprise\": [1, 2]}";
        assertThat(KubeJson.mapper().readValue(json, Thing.class).kind()).isEqualTo("Thing");
        JsonMapper strict = KubeJson.mapper()
                .rebuild()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
        assertThatThrownBy(() -> strict.readValue(json, Thing.class))
                .isInstanceOf(UnrecognizedPropertyException.class)
                .hasMessageContaining("surprise");
    }

    @Test
    void stringsOfReadsThatCarryAStringTableAreOneInstance() {
        StringTable table = new StringTable();
        var reader = KubeJson.mapper().readerFor(Thing.class).withAttribute(StringTable.class, table);
        Thing first = reader.readValue(FULL);
        Thing second = reader.readValue(FULL);
        assertThat(second.kind()).isSameAs(first.kind());
        assertThat(second.metadata().labels().get("app"))
                .isSameAs(first.metadata().labels().get("app"));
        assertThat(second.tags().get(2)).isSameAs(first.tags().get(2));
        Thing unshared = KubeJson.mapper().readValue(FULL, Thing.class);
        assertThat(unshared.kind()).isEqualTo(first.kind()).isNotSameAs(first.kind());
    }
    /** {@link #FULL} without its one coercion (a number as a label value, which the byte path hands to Jackson). */
    private static final String FULL_UNCOERCED = FULL.replace("\"n\": 5", "\"n\": \"5\"");

    private static Thing fromBytes(JsonBytesReader reader, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return reader.read(JsonBytesReader.modelOf(Thing.class).orElseThrow(), bytes, 0, bytes.length);
    }

    @Test
    void fromBytesTheReaderReadsWhatJacksonReads() {
        JsonBytesReader reader = new JsonBytesReader(KubeJson.mapper());
        String escaped = "{\"kind\": \"caf\u00e9 \\\"q\\\" \\u00e9\\n\\ud83d\\ude00\", \"tags\": [\"\u00fc\"]}";
        for (String json : List.of(
                FULL_UNCOERCED,
                "{}",
                "  {\"metadata\": null, \"count\": null, \"tags\": null, \"ports\": null, \"anything\": null} ",
                "{\"metadata\": {}, \"tags\": [], \"ports\": {}, \"count\": -2147483648, \"size\": -0}",
                "{\"ratio\": 2, \"since\": \"2024-01-02T03:04:05+01:00\", \"kind\": \"a\", \"kind\": \"b\"}",
                "{\"phase\": \"Running\", \"count\": 1}",
                "{\"phase\": null}",
                "{\"k\\u0069nd\": \"escaped name\", \"aVeryLongPropertyName\": 1, \"aVeryLongPropertyNam\": 2}",
                "{\"kind\u00e9\": \"unknown non-ASCII name\", \"aVeryLongPropertyNameToo\": [3], \"\": 4}",
                escaped)) {
            Thing read = fromBytes(reader, json);
            assertThat(read).as(json).isNotNull();
            assertThat(read).as(json).isEqualTo(KubeJson.mapper().readValue(json, Thing.class));
        }
    }

    @Test
    void fromBytesEscapedAsciiStringsReadAsJacksonReadsThemAndAreShared() {
        JsonBytesReader reader = new JsonBytesReader(KubeJson.mapper());
        String longEscaped = "k:{\\\"name\\\":\\\"" + "x".repeat(600) + "\\\"}";
        for (String json : List.of(
                "{\"kind\": \"k:{\\\"name\\\":\\\"app\\\"}\"}",
                "{\"kind\": \"a\\\\b\\/c\\b\\f\\n\\r\\t\\u0041\\u007f\\u0000\"}",
                "{\"kind\": \"mixed \\\"ascii\\\" then \\u00e9\"}",
                "{\"kind\": \"" + longEscaped + "\", \"tags\": [\"" + longEscaped + "\"]}",
                "{\"tags\": [\"\\\"\", \"\\\\\"]}")) {
            Thing read = fromBytes(reader, json);
            assertThat(read).as(json).isNotNull().isEqualTo(KubeJson.mapper().readValue(json, Thing.class));
        }
        Thing first = fromBytes(reader, "{\"kind\": \"k:{\\\"type\\\":\\\"Ready\\\"}\"}");
        Thing second = fromBytes(reader, "{\"kind\": \"k:{\\\"type\\\":\\\"Ready\\\"}\"}");
        assertThat(first.kind()).isEqualTo("k:{\"type\":\"Ready\"}").isSameAs(second.kind());
        assertThat(fromBytes(reader, "{\"kind\": \"bad \\u00zz\"}")).isNull();
        assertThat(fromBytes(reader, "{\"kind\": \"cut \\u00")).isNull();
    }

    @Test
    void fromBytesWhatJacksonCoercesOrRefusesIsHandedBackToJackson() {
        JsonBytesReader reader = new JsonBytesReader(KubeJson.mapper());
        for (String json : List.of(
                FULL,
                "{\"count\": \"12\"}",
                "{\"phase\": \"Unheard\", \"count\": 1}",
                "{\"phase\": 0}",
                "{\"count\": 1.0}",
                "{\"count\": 2147483648}",
                "{\"kind\": 5}",
                "{\"enabled\": \"true\"}",
                "{\"tags\": \"a\"}",
                "{\"metadata\": []}",
                "{\"kind\": \"a\",}",
                "{\"kind\" \"a\"}",
                "{\"count\": 01}",
                "{\"count\": -}",
                "{\"count\": 1e3}",
                "{\"count\": 12x}",
                "{\"size\": 1234567890123456789}",
                "{\"tags\": [\"a\"], \"count\": 7",
                "{\"kind\": \"a\"} {}",
                "{\"kind\": \"a\"",
                "{\"kind\": \"\\x\"}",
                "[]")) {
            assertThat(fromBytes(reader, json)).as(json).isNull();
        }
        byte[] badUtf8 = {'{', '"', 'k', 'i', 'n', 'd', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertThat(reader.read(JsonBytesReader.modelOf(Thing.class).orElseThrow(), badUtf8, 0, badUtf8.length))
                .isNull();
    }

    @Test
    void fromBytesTheStringsOfOneReaderAreOneInstance() {
        JsonBytesReader reader = new JsonBytesReader(KubeJson.mapper());
        Thing first = fromBytes(reader, FULL_UNCOERCED);
        Thing second = fromBytes(reader, FULL_UNCOERCED);
        assertThat(second.kind()).isSameAs(first.kind());
        assertThat(second.metadata().labels().get("app"))
                .isSameAs(first.metadata().labels().get("app"));
        assertThat(fromBytes(new JsonBytesReader(KubeJson.mapper()), FULL_UNCOERCED)
                        .kind())
                .isEqualTo(first.kind())
                .isNotSameAs(first.kind());
    }

    @Test
    void onlyAGeneratedModelsDeserializerIsFoundForTheBytePath() {
        assertThat(JsonBytesReader.modelOf(Thing.class)).isPresent();
        assertThat(JsonBytesReader.modelOf(Plain.class)).isEmpty();
        assertThat(JsonBytesReader.modelOf(ObjectMeta.class)).isEmpty();
    }
}
