package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** PartialObjectMetadata built from an object's JSON bytes without a tree. */
class PartialObjectsTest {

    private static String partial(String json) {
        return new String(
                PartialObjects.of("meta.k8s.io/v1", json.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    @Test
    void metadataIsCopiedExactlyWhereverItStands() {
        String meta = "{\"name\":\"a\",\"annotations\":{\"x\":\"}{\\\"metadata\\\":1\",\"ü€𝄞\":\"ü€𝄞\"},"
                + "\"managedFields\":[{\"fieldsV1\":{\"f:data\":{}}}]}";
        String json = "{\"data\":{\"metadata\":{\"fake\":\"ü€𝄞\"},\"k\":[1,{\"a\":\"}\"}]},\"metadata\":" + meta
                + ",\"kind\":\"ConfigMap\"}";

        String out = partial(json);

        assertThat(out)
                .isEqualTo("{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":" + meta
                        + "}");
        JsonNode parsed = KubeJson.mapper().readTree(out);
        assertThat(parsed.path("metadata"))
                .isEqualTo(KubeJson.mapper().readTree(json).path("metadata"));
    }

    @Test
    void objectWithoutMetadataHasEmptyMetadata() {
        assertThat(partial("{\"kind\":\"X\",\"metadata\":null}")).endsWith(",\"metadata\":{}}");
        assertThat(partial("{\"kind\":\"X\"}")).endsWith(",\"metadata\":{}}");
    }

    @Test
    void bookmarkHasOnlyResourceVersionAndTheInitialEventsEndAnnotation() {
        assertThat(PartialObjects.bookmark("meta.k8s.io/v1", 12, false))
                .isEqualTo("{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\","
                        + "\"metadata\":{\"resourceVersion\":\"12\"}}");
        assertThat(KubeJson.mapper()
                        .readTree(PartialObjects.bookmark("meta.k8s.io/v1beta1", 7, true))
                        .path("metadata")
                        .path("annotations")
                        .path("k8s.io/initial-events-end")
                        .asString())
                .isEqualTo("true");
    }
}
