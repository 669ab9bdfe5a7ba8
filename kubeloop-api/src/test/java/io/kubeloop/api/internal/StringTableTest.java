package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
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

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void asciiBytesFindTheStringSharedBeforeWhateverItCameFrom() {
        StringTable table = new StringTable();
        String healthy = table.share(new String("Healthy"));
        String synced = table.share("..Synced".toCharArray(), 2, 6);
        String url = table.shareAscii(ascii("xhttps://github.com/example/deploy.gitx"), 1, 37);

        assertThat(table.shareAscii(ascii("[Healthy]"), 1, 7)).isSameAs(healthy);
        assertThat(table.shareAscii(ascii("Synced"), 0, 6)).isSameAs(synced);
        assertThat(url).isEqualTo("https://github.com/example/deploy.git");
        assertThat(table.shareAscii(ascii("https://github.com/example/deploy.git"), 0, 37))
                .isSameAs(url);
        assertThat(table.share("https://github.com/example/deploy.git".toCharArray(), 0, 37))
                .isSameAs(url);
        byte[] withHash = ascii("Progressing");
        assertThat(table.shareAscii(withHash, 0, withHash.length, "Progressing".hashCode()))
                .isSameAs(table.shareAscii(ascii("Progressing"), 0, 11));
    }

    @Test
    void asciiBytesThatCollideOrDifferInOneByteNeverFindAnotherString() {
        StringTable table = new StringTable(1); // one slot: every string collides
        for (String s : new String[] {
            "abcdefgh",
            "abcdefgi",
            "abcdefghabcdefgh",
            "abcdefghabcdefgX",
            "Xbcdefghabcdefgh",
            "abcdefghabcdefgh1",
            "a",
            ""
        }) {
            byte[] bytes = ascii(s);
            assertThat(table.shareAscii(bytes, 0, bytes.length)).isEqualTo(s);
            assertThat(table.shareAscii(ascii(s), 0, bytes.length)).isEqualTo(s);
        }
        String longer = "y".repeat(StringTable.MAX_LENGTH + 1);
        assertThat(table.shareAscii(ascii(longer), 0, longer.length()))
                .isEqualTo(longer)
                .isNotSameAs(table.shareAscii(ascii(longer), 0, longer.length()));
    }
}
