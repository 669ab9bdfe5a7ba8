package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectKeyTest {

    @Test
    void namespacedKeyPrintsWithSlash() {
        ObjectKey key = ObjectKey.parse("prod/web");

        assertThat(key).isEqualTo(new ObjectKey("prod", "web"));
        assertThat(key.isNamespaced()).isTrue();
        assertThat(key.toString()).isEqualTo("prod/web");
    }

    @Test
    void clusterKeyIsTheBareName() {
        assertThat(ObjectKey.parse("node-1")).isEqualTo(ObjectKey.cluster("node-1"));
        assertThat(ObjectKey.cluster("node-1").toString()).isEqualTo("node-1");
        assertThat(ObjectKey.of(null, "node-1").isNamespaced()).isFalse();
        assertThat(ObjectKey.of("", "node-1")).isEqualTo(ObjectKey.cluster("node-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/web", "prod/", "a/b/c", ""})
    void parseRejectsMalformedKeys(String text) {
        assertThatThrownBy(() -> ObjectKey.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ordersByNamespaceThenName() {
        TreeSet<ObjectKey> keys = new TreeSet<>(List.of(
                ObjectKey.parse("b/a"), ObjectKey.parse("a/z"), ObjectKey.parse("a/b"), ObjectKey.cluster("x")));

        assertThat(keys).extracting(ObjectKey::toString).containsExactly("x", "a/b", "a/z", "b/a");
    }
}
