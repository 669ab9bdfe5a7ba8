package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollectedTest {

    private static List<Object> list(Collected c, Object... items) {
        int mark = c.mark();
        for (Object item : items) {
            c.push(item);
        }
        return c.list(mark);
    }

    private static Map<String, Object> map(Collected c, Object... namesAndValues) {
        int mark = c.mark();
        for (Object o : namesAndValues) {
            c.push(o);
        }
        return c.map(mark);
    }

    @Test
    void listsEqualTheItemsInOrderAndCannotBeChanged() {
        Collected c = new Collected();
        for (Object[] items : new Object[][] {
            {}, {"a"}, {"a", "b"}, {"a", "b", "c"}, {null}, {"a", null}, {null, "b", "c"}, {1, 2, 3, 4, 5, 6, 7, 8}
        }) {
            List<Object> list = list(c, items);
            assertThat(list).as(Arrays.toString(items)).isEqualTo(new ArrayList<>(Arrays.asList(items)));
            assertThat(list.hashCode()).isEqualTo(Arrays.asList(items).hashCode());
            assertThatThrownBy(() -> list.add("x")).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(c.mark()).isZero();
    }

    @Test
    void nestedListsTakeOnlyTheirOwnItems() {
        Collected c = new Collected();
        int outer = c.mark();
        c.push("first");
        c.push(list(c, "x", "y", "z"));
        for (int i = 0; i < 100; i++) { // past the stack's first size
            c.push(i);
        }
        List<Object> list = c.list(outer);
        assertThat(list).hasSize(102).startsWith("first", List.of("x", "y", "z"), 0);
        assertThat(c.mark()).isZero();
    }

    @Test
    void mapsKeepTheJsonOrderAndEqualALinkedHashMapOfTheSameEntries() {
        Collected c = new Collected();
        Map<String, Object> small = map(c, "app", "web", "tier", null, "n", 5);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("app", "web");
        expected.put("tier", null);
        expected.put("n", 5);
        assertThat(small).isEqualTo(expected).containsExactlyEntriesOf(expected);
        assertThat(small.hashCode()).isEqualTo(expected.hashCode());
        assertThat(expected).isEqualTo(small);
        assertThat(small.get("n")).isEqualTo(5);
        assertThat(small.get("none")).isNull();
        assertThat(small.containsKey("tier")).isTrue();
        assertThat(small.containsKey("none")).isFalse();
        assertThat(small.get(null)).isNull();
        assertThat(small).hasToString("{app=web, tier=null, n=5}");
        assertThatThrownBy(() -> small.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(map(c)).isEmpty();
    }

    @Test
    void aRepeatedNameKeepsItsFirstPlaceAndItsLastValueAsJacksonDoes() {
        Collected c = new Collected();
        Map<String, Object> map = map(c, "a", 1, "b", 2, "a", 3);
        assertThat(map).containsExactly(Map.entry("a", 3), Map.entry("b", 2));
    }

    @Test
    void aLargeMapIsAnUnmodifiableMapOfAllItsEntriesInOrder() {
        Collected c = new Collected();
        Object[] entries = new Object[2 * (Collected.SMALL_MAP + 5)];
        Map<String, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < entries.length / 2; i++) {
            entries[2 * i] = "k" + (entries.length - i);
            entries[2 * i + 1] = i;
            expected.put("k" + (entries.length - i), i);
        }
        Map<String, Object> map = map(c, entries);
        assertThat(map).containsExactlyEntriesOf(expected);
        assertThatThrownBy(() -> map.remove("k1")).isInstanceOf(UnsupportedOperationException.class);
    }
}
