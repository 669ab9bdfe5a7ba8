package io.kubeloop.controller.util;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

class FinalizersTest {

    private static final String CLEANUP = "example.com/cleanup";

    @Test
    void addAppendsToACopyOnceAndReturnsTheSameObjectWhenPresent() {
        ConfigMap cm = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("cm")
                .withFinalizers("other/keep")
                .endMetadata()
                .addToData("k", "v")
                .build();

        ConfigMap with = Finalizers.add(cm, CLEANUP);
        assertThat(with.getMetadata().getFinalizers()).containsExactly("other/keep", CLEANUP);
        assertThat(with.getData()).containsEntry("k", "v");
        assertThat(cm.getMetadata().getFinalizers())
                .as("the argument is not changed")
                .containsExactly("other/keep");
        assertThat(Finalizers.add(with, CLEANUP))
                .as("nothing to do: the same object")
                .isSameAs(with);
        assertThat(Finalizers.contains(with, CLEANUP)).isTrue();
        assertThat(Finalizers.contains(cm, CLEANUP)).isFalse();
    }

    @Test
    void removeDropsEveryOccurrenceAndTheFieldWhenNoneAreLeft() {
        DynamicObject o = DynamicObject.of(
                "v1",
                "ConfigMap",
                ObjectMeta.builder()
                        .namespace("default")
                        .name("cm")
                        .finalizers(List.of(CLEANUP, CLEANUP))
                        .build());

        DynamicObject without = Finalizers.remove(o, CLEANUP);
        assertThat(without.metadata().finalizersOrEmpty()).isEmpty();
        assertThat(without.at("/metadata/finalizers"))
                .as("no empty list left behind")
                .isEmpty();
        assertThat(Finalizers.remove(without, CLEANUP)).isSameAs(without);
        assertThat(o.metadata().finalizersOrEmpty()).containsExactly(CLEANUP, CLEANUP);
    }
}
