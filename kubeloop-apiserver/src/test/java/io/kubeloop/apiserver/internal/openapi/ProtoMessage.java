package io.kubeloop.apiserver.internal.openapi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A test-side protobuf wire-format decoder, independent of {@link ProtoWriter}: one message's
 * fields by number, each occurrence kept in order, sub-messages decoded on demand. Throws on
 * malformed input (truncated varints or lengths, unknown wire types). Test-only.
 */
final class ProtoMessage {

    /** One occurrence of a field: a varint or fixed64 ({@code number}) or a length-delimited value ({@code bytes}). */
    record Value(int wireType, long number, byte[] bytes) {}

    private final Map<Integer, List<Value>> fields = new LinkedHashMap<>();

    private ProtoMessage() {}

    static ProtoMessage parse(byte[] data) {
        ProtoMessage m = new ProtoMessage();
        int[] pos = {0};
        while (pos[0] < data.length) {
            long key = varint(data, pos);
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            if (field == 0) {
                throw new IllegalArgumentException("field number 0 at " + pos[0]);
            }
            Value v = switch (wire) {
                case 0 -> new Value(0, varint(data, pos), null);
                case 1 -> {
                    if (pos[0] + 8 > data.length) {
                        throw new IllegalArgumentException("truncated fixed64");
                    }
                    long bits = 0;
                    for (int i = 0; i < 8; i++) {
                        bits |= (data[pos[0] + i] & 0xFFL) << (8 * i);
                    }
                    pos[0] += 8;
                    yield new Value(1, bits, null);
                }
                case 2 -> {
                    long len = varint(data, pos);
                    if (len < 0 || pos[0] + len > data.length) {
                        throw new IllegalArgumentException("length " + len + " past the end at " + pos[0]);
                    }
                    byte[] b = Arrays.copyOfRange(data, pos[0], (int) (pos[0] + len));
                    pos[0] += (int) len;
                    yield new Value(2, 0, b);
                }
                default -> throw new IllegalArgumentException("unsupported wire type " + wire);
            };
            m.fields.computeIfAbsent(field, k -> new ArrayList<>()).add(v);
        }
        return m;
    }

    private static long varint(byte[] data, int[] pos) {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos[0] >= data.length) {
                throw new IllegalArgumentException("truncated varint");
            }
            byte b = data[pos[0]++];
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("varint longer than ten bytes");
    }

    Set<Integer> fieldNumbers() {
        return fields.keySet();
    }

    List<Value> values(int field) {
        return fields.getOrDefault(field, List.of());
    }

    boolean has(int field) {
        return fields.containsKey(field);
    }

    List<ProtoMessage> messages(int field) {
        return values(field).stream().map(v -> parse(v.bytes())).toList();
    }

    /** The single occurrence of a message field. */
    ProtoMessage message(int field) {
        List<ProtoMessage> all = messages(field);
        if (all.size() != 1) {
            throw new AssertionError(
                    "expected one field " + field + " but found " + all.size() + " in fields " + fields.keySet());
        }
        return all.getFirst();
    }

    List<String> strings(int field) {
        return values(field).stream()
                .map(v -> new String(v.bytes(), StandardCharsets.UTF_8))
                .toList();
    }

    /** The string field, {@code ""} when absent (proto3). */
    String string(int field) {
        List<String> all = strings(field);
        return all.isEmpty() ? "" : all.getLast();
    }

    long varint(int field) {
        List<Value> all = values(field);
        return all.isEmpty() ? 0 : all.getLast().number();
    }

    double float64(int field) {
        List<Value> all = values(field);
        return all.isEmpty() ? 0 : Double.longBitsToDouble(all.getLast().number());
    }

    /** In a repeated {@code Named*} field: the value (2) of the entry whose name (1) is {@code name}. */
    ProtoMessage named(int field, String name) {
        return messages(field).stream()
                .filter(e -> e.string(1).equals(name))
                .findFirst()
                .map(e -> e.message(2))
                .orElseThrow(() ->
                        new AssertionError("no entry " + name + " in field " + field + "; names: " + names(field)));
    }

    List<String> names(int field) {
        return messages(field).stream().map(e -> e.string(1)).toList();
    }

    /** In a repeated {@code NamedAny} field: the YAML text of the entry named {@code name}. */
    String extension(int field, String name) {
        return named(field, name).string(2);
    }
}
