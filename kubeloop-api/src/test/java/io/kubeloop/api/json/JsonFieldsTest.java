package io.kubeloop.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {

    /** The number {@code fields} finds for {@code name} from its packed bytes, as {@code BytesInput} packs them. */
    private static int packed(JsonFields fields, String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        return fields.find(JsonFields.pack(b, 0), JsonFields.pack(b, 8));
    }

    @Test
    void everyNameIsFoundByItsNumberAsAStringAndFromItsPackedBytes() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            names.add("p" + i + (i % 3 == 0 ? "abcdefghijklmn" : "")); // some longer than 16 bytes
        }
        names.add("");
        names.add("exactlySixteenBy");
        JsonFields fields = JsonFields.of(Object.class, names.toArray(String[]::new));
        assertThat(fields.size()).isEqualTo(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            assertThat(fields.name(i)).isEqualTo(name);
            assertThat(fields.find(name)).as(name).isEqualTo(i);
            if (name.length() <= 16) {
                assertThat(packed(fields, name)).as(name).isEqualTo(i);
            }
        }
    }

    @Test
    void aNameNotAmongTheFieldsIsUnknown() {
        JsonFields fields = JsonFields.of(Object.class, "kind", "metadata", "spec", "caf\u00e9");
        assertThat(fields.find("status")).isEqualTo(JsonInput.UNKNOWN);
        assertThat(packed(fields, "status")).isEqualTo(JsonInput.UNKNOWN);
        assertThat(packed(fields, "kin")).isEqualTo(JsonInput.UNKNOWN);
        assertThat(packed(fields, "kinds")).isEqualTo(JsonInput.UNKNOWN);
        assertThat(packed(fields, "")).isEqualTo(JsonInput.UNKNOWN);
        assertThat(fields.find("caf\u00e9")).isEqualTo(3); // non-ASCII: found as a string only
        assertThat(fields.type()).isEqualTo(Object.class);
    }

    @Test
    void aNameGivenTwiceIsRefused() {
        assertThatThrownBy(() -> JsonFields.of(Object.class, "spec", "status", "spec"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec");
    }
}
