package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The pod-template-hash: vowel-free, stable under field order, changed by content and by collisions. */
class TemplateHashTest {

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text);
    }

    @Test
    void equalTemplatesHashAlikeWhateverTheirFieldOrderAndTheHashHasNoVowels() {
        String a = TemplateHash.of(json("{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"x\":1,\"y\":2}}"), 0);
        String b = TemplateHash.of(json("{\"spec\":{\"y\":2,\"x\":1},\"metadata\":{\"labels\":{\"app\":\"web\"}}}"), 0);
        assertThat(a).isEqualTo(b).matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}");
    }

    @Test
    void aChangedTemplateOrACollisionGivesAnotherHash() {
        JsonNode t = json("{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.26\"}]}}");
        JsonNode u = json("{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}");
        assertThat(TemplateHash.of(t, 0)).isNotEqualTo(TemplateHash.of(u, 0));
        assertThat(TemplateHash.of(t, 1)).isNotEqualTo(TemplateHash.of(t, 0));
        assertThat(TemplateHash.of(t, 1)).isEqualTo(TemplateHash.of(t, 1));
    }
}
