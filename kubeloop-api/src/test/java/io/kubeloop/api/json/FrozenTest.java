package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrozenTest {

    @Test
    void unmodifiableCollectionsAreKeptAsTheyAre() {
        List<String> list = List.of("a", "b", "c");
        Map<String, Integer> map = Map.of("a", 1);
        assertThat(Frozen.list(list)).isSameAs(list);
        assertThat(Frozen.list(List.<String>of())).isSameAs(List.of());
        assertThat(Frozen.map(map)).isSameAs(map);
        assertThat(Frozen.list(null)).isNull();
        assertThat(Frozen.map(null)).isNull();
    }

    @Test
    void modifiableCollectionsAreCopiedKeepingOrderAndNulls() {
        List<String> list = new ArrayList<>(Arrays.asList("b", null, "a"));
        List<String> frozen = Frozen.list(list);
        list.set(0, "x");
        assertThat(frozen).containsExactly("b", null, "a");
        assertThatThrownBy(() -> frozen.add("z")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Frozen.list(frozen)).as("a frozen list is not copied again").isSameAs(frozen);

        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 20; i > 0; i--) {
            map.put("k" + i, i == 3 ? null : "v" + i);
        }
        Map<String, String> large = Frozen.map(map);
        map.clear();
        assertThat(large).hasSize(20).containsEntry("k3", null);
        assertThat(large.keySet()).first().isEqualTo("k20");
        assertThatThrownBy(() -> large.put("k", "v")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> large.entrySet().iterator().next().setValue("v"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(Frozen.map(large)).isSameAs(large);
    }

    @Test
    void anUnmodifiableViewOfAModifiableCollectionIsCopied() {
        List<String> backing = new ArrayList<>(List.of("a"));
        List<String> frozen = Frozen.list(Collections.unmodifiableList(backing));
        backing.add("b");
        assertThat(frozen).containsExactly("a");
    }

    @Test
    void deepFreezesNestedListsAndMapsAndKeepsWhatIsFrozenAlready() {
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("x", new ArrayList<>(List.of(1))));
        List<Object> value = List.of(inner, "s");
        List<Object> frozen = Frozen.deep(value);
        assertThat(frozen).isNotSameAs(value).isEqualTo(value);
        @SuppressWarnings("unchecked")
        Map<String, Object> frozenInner = (Map<String, Object>) frozen.getFirst();
        assertThatThrownBy(() -> frozenInner.put("y", 2)).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        List<Object> x = (List<Object>) frozenInner.get("x");
        assertThatThrownBy(() -> x.add(2)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Frozen.deep(frozen)).as("nothing left to freeze").isSameAs(frozen);
        assertThat(Frozen.deep("text")).isEqualTo("text");
    }
}
