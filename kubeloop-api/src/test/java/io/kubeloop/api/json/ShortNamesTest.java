package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ShortNamesTest {

    /** The packed key of an ASCII name of at most 16 bytes, as {@code BytesInput} packs it. */
    private static String find(ShortNames table, String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        return table.find(JsonFields.pack(b, 0), JsonFields.pack(b, 8), b, 0, b.length);
    }

    @Test
    void aNameComesBackAsTheInstanceSeenFirst() {
        ShortNames table = new ShortNames(10);
        String kind = find(table, "kind");
        assertThat(kind).isEqualTo("kind");
        assertThat(find(table, "kind")).isSameAs(kind);
        String sixteen = find(table, "creationTimestam");
        assertThat(find(table, "creationTimestam")).isSameAs(sixteen).isEqualTo("creationTimestam");
    }

    @Test
    void namesSharingASlotNeverFindEachOther() {
        ShortNames table = new ShortNames(1); // two slots
        String[] names = {"", "a", "ab", "name", "namespace", "abcdefgh", "abcdefghi", "abcdefghabcdefgh", "z"};
        for (int round = 0; round < 2; round++) {
            for (String name : names) {
                assertThat(find(table, name)).isEqualTo(name);
            }
        }
    }

    @Test
    void twoNamesSharingASlotAreBothKept() {
        ShortNames table = new ShortNames(1); // one set of two slots: every name maps into it
        String namespace = find(table, "namespace");
        String hookType = find(table, "hookType");
        for (int round = 0; round < 3; round++) {
            assertThat(find(table, "namespace")).isSameAs(namespace);
            assertThat(find(table, "hookType")).isSameAs(hookType);
        }
        assertThat(find(table, "phase")).isEqualTo("phase"); // a third name evicts one of them
        assertThat(find(table, "namespace")).isEqualTo("namespace");
        assertThat(find(table, "hookType")).isEqualTo("hookType");
    }
}
