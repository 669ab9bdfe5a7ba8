package io.kubeloop.apiserver.internal.storage.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class RecordFrameTest {

    private final CRC32C crc = new CRC32C();

    private ByteBuffer encoded(long sequence, byte[] payload) {
        ByteBuffer buf = ByteBuffer.allocate(RecordFrame.frameSize(payload.length));
        RecordFrame.encode(buf, sequence, payload, crc);
        return buf.flip();
    }

    @Test
    void encodedFrameChecksValidWithItsSequenceAndPayload() {
        byte[] payload = WalFixtures.payload(42);
        ByteBuffer buf = encoded(42, payload);

        RecordFrame.Check check = RecordFrame.check(buf, 0, crc);

        assertThat(check).isInstanceOf(RecordFrame.Valid.class);
        RecordFrame.Valid v = (RecordFrame.Valid) check;
        assertThat(v.sequence()).isEqualTo(42);
        assertThat(v.payloadOffset()).isEqualTo(RecordFrame.HEADER_SIZE);
        byte[] read = new byte[v.payloadLength()];
        buf.get(v.payloadOffset(), read);
        assertThat(read).isEqualTo(payload);
        assertThat(v.end()).isEqualTo(buf.limit());
    }

    @Test
    void headerIsLengthChecksumSequenceBigEndian() {
        ByteBuffer buf = encoded(0x0102030405060708L, new byte[] {9, 9, 9});

        assertThat(buf.getInt(0)).isEqualTo(3);
        assertThat(buf.getLong(8)).isEqualTo(0x0102030405060708L);
        CRC32C expected = new CRC32C();
        expected.update(new byte[] {0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9});
        assertThat(buf.getInt(4)).isEqualTo((int) expected.getValue());
    }

    @Test
    void emptyPayloadIsAValidFrame() {
        assertThat(RecordFrame.check(encoded(1, new byte[0]), 0, crc)).isInstanceOf(RecordFrame.Valid.class);
    }

    @Test
    void flippingAnyBitOfTheFrameMakesItInvalid() {
        ByteBuffer good = encoded(7, WalFixtures.payload(7));
        for (int i = 0; i < good.limit(); i++) {
            for (int bit = 0; bit < 8; bit++) {
                ByteBuffer bad =
                        ByteBuffer.allocate(good.limit()).put(good.duplicate()).flip();
                bad.put(i, (byte) (bad.get(i) ^ (1 << bit)));
                assertThat(RecordFrame.check(bad, 0, crc))
                        .as("byte %d bit %d", i, bit)
                        .isInstanceOf(RecordFrame.Invalid.class);
            }
        }
    }

    @Test
    void everyProperPrefixOfAFrameIsInvalid() {
        ByteBuffer good = encoded(7, WalFixtures.payload(7));
        for (int cut = 0; cut < good.limit(); cut++) {
            ByteBuffer prefix = good.duplicate().limit(cut);
            assertThat(RecordFrame.check(prefix, 0, crc))
                    .as("prefix of %d bytes", cut)
                    .isInstanceOf(RecordFrame.Invalid.class);
        }
    }

    @Test
    void zeroedBytesAreNotAFrame() {
        RecordFrame.Check check = RecordFrame.check(ByteBuffer.allocate(64), 0, crc);

        assertThat(check).isEqualTo(new RecordFrame.Invalid("checksum mismatch"));
    }

    @Test
    void nonPositiveSequenceIsInvalidEvenWithAMatchingChecksum() {
        assertThat(RecordFrame.check(encoded(0, new byte[] {1}), 0, crc))
                .isEqualTo(new RecordFrame.Invalid("invalid sequence 0"));
    }

    @Test
    void findValidFrameSkipsGarbageToTheNextFrame() {
        ByteBuffer frame = encoded(5, WalFixtures.payload(5));
        ByteBuffer buf = ByteBuffer.allocate(37 + frame.limit());
        for (int i = 0; i < 37; i++) {
            buf.put((byte) (i * 31));
        }
        buf.put(frame).flip();

        assertThat(RecordFrame.findValidFrame(buf, 0, crc)).isEqualTo(37);
        assertThat(RecordFrame.findValidFrame(buf, 38, crc)).isEqualTo(-1);
    }

    @Test
    void segmentHeaderIsCheckedForMagicAndVersion() {
        ByteBuffer header = ByteBuffer.allocate(RecordFrame.SEGMENT_HEADER_SIZE);
        RecordFrame.putSegmentHeader(header);
        header.flip();
        assertThat(RecordFrame.checkSegmentHeader(header)).isNull();

        header.putInt(8, 2);
        assertThat(RecordFrame.checkSegmentHeader(header)).isEqualTo("unsupported segment format version 2");
        header.put(0, (byte) 'X');
        assertThat(RecordFrame.checkSegmentHeader(header)).contains("bad magic");
        assertThat(RecordFrame.checkSegmentHeader(header.limit(5))).contains("incomplete");
    }
}
