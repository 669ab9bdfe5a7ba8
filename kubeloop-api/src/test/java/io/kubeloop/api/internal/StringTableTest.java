package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StringTableTest {

    @Test
    void anEqualStringComesBackAsTheInstanceSeenFirst() {
        StringTable table = new StringTable(16);
        String first = new String("Healthy");
        String second = new String("Healthy");

        assertThat(table.share(first)).isSameAs(first);
        assertThat(table.share(second)).isSameAs(first);
    }

    @Test
    void aStringThatCollidesReplacesTheSlotAndNothingIsEverWrong() {
        StringTable table = new StringTable(1); // one slot: every string collides
        String a = new String("a");
        String b = new String("b");

        assertThat(table.share(a)).isSameAs(a);
        assertThat(table.share(b)).isSameAs(b);
        String a2 = new String("a");
        assertThat(table.share(a2)).isEqualTo("a").isSameAs(a2); // "a" was evicted by "b"
    }

    @Test
    void longStringsAndNullPassThroughUnshared() {
        StringTable table = new StringTable();
        String longer = "x".repeat(StringTable.MAX_LENGTH + 1);
        table.share(longer);
        String again = new String(longer);

        assertThat(table.share(again)).isSameAs(again);
        assertThat(table.share(null)).isNull();
    }

    @Test
    void charactersFindTheStringSharedBeforeAndOtherwiseBecomeOne() {
        StringTable table = new StringTable();
        String healthy = table.share(new String("Healthy"));
        char[] buffer = "xxHealthyxx".toCharArray();

        assertThat(table.share(buffer, 2, 7)).isSameAs(healthy);
        String synced = table.share("..Synced".toCharArray(), 2, 6);
        assertThat(synced).isEqualTo("Synced");
        assertThat(table.share(new String("Synced"))).isSameAs(synced);
        assertThat(table.share("Synced!".toCharArray(), 0, 7)).isEqualTo("Synced!");
        assertThat(table.share(new char[0], 0, 0)).isEmpty();
    }

    @Test
    void theSizeMustBeAPowerOfTwo() {
        assertThatThrownBy(() -> new StringTable(12)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StringTable(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
