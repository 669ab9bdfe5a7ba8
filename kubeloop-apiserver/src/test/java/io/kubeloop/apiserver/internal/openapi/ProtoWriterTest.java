package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ProtoWriterTest {

    private static String hex(ProtoWriter w) {
        return HexFormat.of().formatHex(w.toByteArray());
    }

    @Test
    void varintsUseSevenBitGroupsLeastSignificantFirst() {
        assertThat(hex(new ProtoWriter().int64(1, 1))).isEqualTo("0801");
        assertThat(hex(new ProtoWriter().int64(1, 300))).isEqualTo("08ac02");
        assertThat(hex(new ProtoWriter().int64(1, -1))).isEqualTo("08ffffffffffffffffff01");
    }

    @Test
    void largeFieldNumbersTakeMultiByteTags() {
        // field 31, wire type 2: (31 << 3) | 2 = 250 = 0xfa 0x01
        assertThat(hex(new ProtoWriter().string(31, "x"))).isEqualTo("fa010178");
    }

    @Test
    void stringsAreLengthPrefixedUtf8() {
        assertThat(hex(new ProtoWriter().string(2, "é"))).isEqualTo("1202c3a9");
    }

    @Test
    void doublesAreLittleEndianFixed64() {
        assertThat(hex(new ProtoWriter().float64(9, 1.0))).isEqualTo("49000000000000f03f");
    }

    @Test
    void falseIsWrittenWhenAsked() {
        assertThat(hex(new ProtoWriter().bool(2, false))).isEqualTo("1000");
    }

    @Test
    void emptyMessagesArePresentWithLengthZero() {
        assertThat(hex(new ProtoWriter().message(25, new ProtoWriter()))).isEqualTo("ca0100");
    }

    @Test
    void fieldNumberZeroIsRejected() {
        assertThatThrownBy(() -> new ProtoWriter().string(0, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("protobuf field number out of range: 0");
    }
}
