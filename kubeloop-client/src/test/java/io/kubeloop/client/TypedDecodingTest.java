package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.json.KubeJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Typed objects decoded from one watch stream or one list share their repeated strings (as DynamicObjects
 * do), and come out equal to what Jackson alone reads from the same JSON.
 */
class TypedDecodingTest {

    record Status(String phase, Instant since, List<String> images) {}

    record App(String apiVersion, String kind, ObjectMeta metadata, Map<String, String> spec, Status status)
            implements KubernetesObject {}

    private static String app(int i) {
        return "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"App\",\"metadata\":{\"name\":\"app-" + i
                + "\",\"namespace\":\"team-a\",\"labels\":{\"tier\":\"backend\"}},\"spec\":{\"project\":\"payments\"},"
                + "\"status\":{\"phase\":\"Healthy\",\"since\":\"2025-03-01T08:00:0" + i + "Z\","
                + "\"images\":[\"registry.example.com/payments/api:1.4\"]}}";
    }

    @Test
    void objectsOfOneWatchStreamShareTheirRepeatedStrings() {
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            stream.append("{\"type\":\"ADDED\",\"object\":").append(app(i)).append("}\n");
        }
        WatchDecoder<App> decoder = new WatchDecoder<>(
                new ByteArrayInputStream(stream.toString().getBytes(StandardCharsets.UTF_8)),
                new ObjectCodec<>(App.class),
                64);
        List<App> apps = new ArrayList<>();
        WatchEvent<App> e;
        while ((e = decoder.next()) != null) {
            apps.add(((WatchEvent.Added<App>) e).object());
        }

        assertThat(apps).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(apps.get(i)).isEqualTo(KubeJson.mapper().readValue(app(i), App.class));
        }
        assertSharing(apps);
    }

    @Test
    void itemsOfOneListShareTheirRepeatedStrings() {
        String list =
                "{\"kind\":\"AppList\",\"apiVersion\":\"argoproj.io/v1alpha1\",\"metadata\":{\"resourceVersion\":\"9\"},"
                        + "\"items\":[" + app(0) + "," + app(1) + "," + app(2) + "]}";

        List<App> apps = new ObjectCodec<>(App.class)
                .parseList(list.getBytes(StandardCharsets.UTF_8))
                .items();

        assertThat(apps).hasSize(3);
        assertThat(apps.get(2)).isEqualTo(KubeJson.mapper().readValue(app(2), App.class));
        assertSharing(apps);
    }

    private static void assertSharing(List<App> apps) {
        App first = apps.getFirst();
        for (App other : apps.subList(1, apps.size())) {
            assertThat(other.status().phase()).isSameAs(first.status().phase());
            assertThat(other.status().images().getFirst())
                    .isSameAs(first.status().images().getFirst());
            assertThat(other.spec().get("project")).isSameAs(first.spec().get("project"));
            assertThat(other.metadata().namespace()).isEqualTo("team-a");
            assertThat(other.metadata().name()).isNotSameAs(first.metadata().name());
        }
    }
}
