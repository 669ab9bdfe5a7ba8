package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ListBodyTest {

    private static final ResourceDefinition CONFIG_MAPS = new ResourceDefinition(
            "",
            "v1",
            "configmaps",
            "ConfigMap",
            null,
            null,
            List.of(),
            List.of(),
            true,
            ResourceDefinition.ALL_VERBS,
            Set.of(),
            NameRule.SUBDOMAIN,
            false,
            false,
            false,
            Set.of(),
            List.of(),
            null,
            null);

    private static List<StoredObject> configMaps(int n) {
        List<StoredObject> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ObjectNode o = KubeJson.mapper().createObjectNode();
            o.put("apiVersion", "v1").put("kind", "ConfigMap");
            o.putObject("metadata")
                    .put("name", "cm-" + i)
                    .put("namespace", "ns")
                    .put("resourceVersion", "" + (i + 1));
            o.putObject("data").put("key", "value-" + "x".repeat(i % 50));
            out.add(StoredObject.of("configmaps", "ns/cm-" + i, i + 1, o));
        }
        return out;
    }

    private static List<byte[]> chunks(ListPage page, int chunkSize) {
        ListBody body = new ListBody(CONFIG_MAPS, page, chunkSize);
        List<byte[]> out = new ArrayList<>();
        for (byte[] c = body.next(); c != null; c = body.next()) {
            out.add(c);
        }
        assertThat(body.next()).as("stays done").isNull();
        return out;
    }

    private static JsonNode concatenated(List<byte[]> chunks) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        chunks.forEach(all::writeBytes);
        return KubeJson.mapper().readTree(all.toByteArray());
    }

    @Test
    void aListThatFitsInOneChunkIsOneChunkHoldingTheWholeDocument() {
        List<StoredObject> items = configMaps(3);
        List<byte[]> chunks = chunks(new ListPage(items, 42, null, null), 1 << 20);

        assertThat(chunks).hasSize(1);
        JsonNode list = concatenated(chunks);
        assertThat(list.path("kind").asString()).isEqualTo("ConfigMapList");
        assertThat(list.path("apiVersion").asString()).isEqualTo("v1");
        assertThat(list.path("metadata").path("resourceVersion").asString()).isEqualTo("42");
        assertThat(list.path("items")).hasSize(3);
        assertThat(list.path("items").get(2)).isEqualTo(items.get(2).object());
    }

    @Test
    void anEmptyListIsOneChunkWithAnEmptyItemsArray() {
        List<byte[]> chunks = chunks(new ListPage(List.of(), 7, null, null), 16);

        assertThat(chunks).hasSize(1);
        assertThat(new String(chunks.getFirst()))
                .isEqualTo(
                        "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"7\"},\"items\":[]}");
    }

    @Test
    void aLargeListComesInBoundedChunksThatConcatenateToTheDocumentInOrder() {
        List<StoredObject> items = configMaps(200);
        int largestItem = items.stream().mapToInt(o -> o.json().length).max().orElseThrow();
        int chunkSize = 1000;

        List<byte[]> chunks = chunks(new ListPage(items, 99, "token", 5L), chunkSize);

        assertThat(chunks.size()).isGreaterThan(10);
        for (byte[] c : chunks.subList(0, chunks.size() - 1)) {
            assertThat(c.length).isBetween(chunkSize, chunkSize + largestItem + 1);
        }
        JsonNode list = concatenated(chunks);
        assertThat(list.path("metadata").path("continue").asString()).isEqualTo("token");
        assertThat(list.path("metadata").path("remainingItemCount").asLong()).isEqualTo(5);
        assertThat(list.path("items")).hasSize(200);
        for (int i = 0; i < 200; i++) {
            assertThat(list.path("items").get(i).path("metadata").path("name").asString())
                    .isEqualTo("cm-" + i);
        }
        assertThat(concatenated(List.of(ListBody.whole(CONFIG_MAPS, new ListPage(items, 99, "token", 5L)))))
                .isEqualTo(list);
    }

    @Test
    void anItemLargerThanTheChunkSizeFormsAChunkOfItsOwn() {
        List<StoredObject> items = configMaps(4);

        List<byte[]> chunks = chunks(new ListPage(items, 1, null, null), 1);

        assertThat(chunks).hasSize(4); // the head rides with the first item, the tail with the last
        assertThat(concatenated(chunks).path("items")).hasSize(4);
    }

    @Test
    void theChunkSizeMustBePositive() {
        assertThatThrownBy(() -> new ListBody(CONFIG_MAPS, new ListPage(List.of(), 1, null, null), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpOptions.defaults().withListChunkBytes(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listChunkBytes");
    }
}
