package io.kubeloop.apiserver.internal.storage.wal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Shared test helpers: deterministic payloads and a one-call recovery into memory. */
final class WalFixtures {

    private WalFixtures() {}

    /** A payload that depends only on the sequence, 20 to ~300 bytes long. */
    static byte[] payload(long sequence) {
        StringBuilder sb = new StringBuilder("{\"seq\":").append(sequence).append(",\"pad\":\"");
        int pad = (int) (sequence * 7919 % 280);
        for (int i = 0; i < pad; i++) {
            sb.append((char) ('a' + (sequence + i) % 26));
        }
        return sb.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One replayed record. */
    record Replayed(long sequence, byte[] record) {}

    /** Everything a recovery delivered. */
    record Recovered(Recovery recovery, byte[] snapshot, List<Replayed> records) {
        List<Long> sequences() {
            return records.stream().map(Replayed::sequence).toList();
        }
    }

    /** Recovers {@code wal} into memory. */
    static Recovered recover(WriteAheadLog wal) {
        List<Replayed> records = new ArrayList<>();
        byte[][] snapshot = {null};
        Recovery r = wal.recover(
                (seq, in) -> {
                    try {
                        snapshot[0] = in.readAllBytes();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                (seq, bytes) -> records.add(new Replayed(seq, bytes)));
        return new Recovered(r, snapshot[0], records);
    }

    /** Opens, recovers and closes the log in {@code dir}. */
    static Recovered reopen(Path dir, WalOptions options) {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            return recover(wal);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static SnapshotWriter snapshotOf(String content) {
        return out -> {
            try {
                out.write(utf8(content));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    static String string(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
