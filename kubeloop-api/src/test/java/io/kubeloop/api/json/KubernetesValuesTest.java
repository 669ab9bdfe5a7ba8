package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.IntOrString;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes' own values read by a generated reader — quantities, int-or-strings, managed fields — are what
 * Jackson reads, from bytes and through Jackson alike, and metadata cannot be changed once made.
 */
class KubernetesValuesTest {

    @JsonDeserialize(using = Values.Reader.class)
    record Values(ObjectMeta metadata, Quantity cpu, Quantity memory, IntOrString port, IntOrString surge) {

        private static final JsonFields FIELDS =
                JsonFields.of(Values.class, "metadata", "cpu", "memory", "port", "surge");

        static Values readJson(JsonInput in) {
            if (in.isNull()) {
                return null;
            }
            ObjectMeta metadata = null;
            Quantity cpu = null;
            Quantity memory = null;
            IntOrString port = null;
            IntOrString surge = null;
            for (int f = in.firstField(FIELDS); f != JsonInput.END; f = in.nextField(FIELDS)) {
                switch (f) {
                    case 0 -> metadata = in.objectMeta();
                    case 1 -> cpu = in.quantity();
                    case 2 -> memory = in.quantity();
                    case 3 -> port = in.intOrString();
                    case 4 -> surge = in.intOrString();
                    default -> in.skipField(FIELDS);
                }
            }
            return new Values(metadata, cpu, memory, port, surge);
        }

        public static final class Reader extends ModelDeserializer<Values> {
            public Reader() {
                super(Values.class);
            }

            @Override
            protected Values read(JsonInput in) {
                return readJson(in);
            }
        }
    }

    private static final String JSON = """
            {"metadata":{"name":"a","labels":{"app":"x"},"managedFields":[
               {"manager":"m","operation":"Update","fieldsType":"FieldsV1",
                "fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{}}}}]},
             "cpu":"500m","memory":1024,"port":8080,"surge":"25%"}
            """;

    private static Values fromBytes(JsonBytesReader reader, String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        Values v = reader.read(JsonBytesReader.modelOf(Values.class).orElseThrow(), b, 0, b.length);
        assertThat(v).as("read from bytes without Jackson").isNotNull();
        return v;
    }

    @Test
    void bytesAndJacksonReadTheSameValues() throws Exception {
        Values viaJackson = KubeJson.mapper().readValue(JSON, Values.class);
        Values viaBytes = fromBytes(new JsonBytesReader(KubeJson.mapper()), JSON);
        assertThat(viaBytes).isEqualTo(viaJackson);
        assertThat(viaBytes.cpu()).isEqualTo(Quantity.parse("0.5"));
        assertThat(viaBytes.cpu().toString()).isEqualTo("500m");
        assertThat(viaBytes.memory().longValue()).isEqualTo(1024);
        assertThat(viaBytes.port()).isEqualTo(IntOrString.of(8080));
        assertThat(viaBytes.surge()).isEqualTo(IntOrString.of("25%"));
        assertThat(KubeJson.mapper()
                        .<JsonNode>valueToTree(
                                viaBytes.metadata().managedFields().getFirst()))
                .isEqualTo(KubeJson.mapper()
                        .<JsonNode>valueToTree(
                                viaJackson.metadata().managedFields().getFirst()));
    }

    @Test
    void equalQuantitiesAndFieldSetsOfOneStreamAreOneInstance() {
        JsonBytesReader stream = new JsonBytesReader(KubeJson.mapper());
        Values first = fromBytes(stream, JSON);
        Values second = fromBytes(stream, JSON.replace("\"name\":\"a\"", "\"name\":\"b\""));
        assertThat(second.cpu()).isSameAs(first.cpu());
        assertThat(second.metadata().managedFields().getFirst().fieldsV1())
                .isSameAs(first.metadata().managedFields().getFirst().fieldsV1());
        Values other = fromBytes(new JsonBytesReader(KubeJson.mapper()), JSON);
        assertThat(other.cpu()).as("another stream").isNotSameAs(first.cpu()).isEqualTo(first.cpu());
    }

    @Test
    void aFieldSetReadFromBytesIsJacksonsTreeInEveryRespectOnceAskedFor() throws Exception {
        JsonNode viaJackson = KubeJson.mapper()
                .readValue(JSON, Values.class)
                .metadata()
                .managedFields()
                .getFirst()
                .fieldsV1();
        for (int round = 0; round < 20; round++) {
            JsonNode lazy = fromBytes(new JsonBytesReader(KubeJson.mapper()), JSON)
                    .metadata()
                    .managedFields()
                    .getFirst()
                    .fieldsV1();
            // first asked for from several threads at once: each sees the whole tree
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<String>> seen = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    seen.add(pool.submit(() -> KubeJson.mapper().writeValueAsString(lazy)));
                }
                for (Future<String> f : seen) {
                    assertThat(f.get()).isEqualTo(KubeJson.mapper().writeValueAsString(viaJackson));
                }
            } finally {
                pool.shutdown();
            }
            assertThat(lazy).isEqualTo(viaJackson);
            assertThat(viaJackson).isEqualTo(lazy);
            assertThat(lazy.hashCode()).isEqualTo(viaJackson.hashCode());
            assertThat(lazy.propertyNames()).containsExactlyElementsOf(viaJackson.propertyNames());
            assertThat(lazy.at("/f:metadata/f:labels/f:app").isObject()).isTrue();
        }
    }

    @Test
    void anInvalidQuantityFailsAsJacksonFails() {
        String bad = "{\"cpu\":\"five\"}";
        byte[] b = bad.getBytes(StandardCharsets.UTF_8);
        assertThat(new JsonBytesReader(KubeJson.mapper())
                        .read(JsonBytesReader.modelOf(Values.class).orElseThrow(), b, 0, b.length))
                .as("handed back to Jackson")
                .isNull();
        assertThatThrownBy(() -> KubeJson.mapper().readValue(bad, Values.class)).hasMessageContaining("five");
    }

    @Test
    void fieldSetsCannotBeChangedWhicheverWayTheyWereRead() throws Exception {
        for (Values v : List.of(
                KubeJson.mapper().readValue(JSON, Values.class),
                fromBytes(new JsonBytesReader(KubeJson.mapper()), JSON))) {
            JsonNode fields = v.metadata().managedFields().getFirst().fieldsV1();
            assertThatThrownBy(() -> ((ObjectNode) fields).put("f:x", 1))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ((ObjectNode) fields.path("f:spec")).removeAll())
                    .isInstanceOf(UnsupportedOperationException.class);
            ObjectNode copy = (ObjectNode) fields.deepCopy();
            copy.put("f:x", 1); // a deep copy is an ordinary tree
            assertThat(fields.has("f:x")).isFalse();
        }
    }

    @Test
    void metadataFreezesWhatItIsGiven() {
        Map<String, String> labels = new LinkedHashMap<>(Map.of("app", "x"));
        List<String> finalizers = new ArrayList<>(List.of("f"));
        ObjectNode fields = KubeJson.mapper().createObjectNode();
        fields.putObject("f:spec");
        ObjectMeta meta = new ObjectMeta(
                "n",
                null,
                "ns",
                null,
                null,
                null,
                null,
                null,
                null,
                labels,
                null,
                null,
                finalizers,
                List.of(new ManagedFieldsEntry("m", "Update", "v1", null, "FieldsV1", fields, null)),
                null);
        labels.put("tier", "web");
        finalizers.clear();
        fields.putObject("f:status");

        assertThat(meta.labels()).containsOnlyKeys("app");
        assertThat(meta.finalizers()).containsExactly("f");
        assertThat(meta.managedFields().getFirst().fieldsV1().has("f:status")).isFalse();
        assertThatThrownBy(() -> meta.labels().put("k", "v")).isInstanceOf(UnsupportedOperationException.class);
        ObjectMeta built = meta.toBuilder().label("tier", "web").build();
        assertThat(built.labels()).containsOnlyKeys("app", "tier");
        assertThat(meta.labels()).containsOnlyKeys("app");
    }
}
