package io.kubeloop.apiserver.internal.openapi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A minimal protocol buffers (proto3) wire-format writer: varints, 64-bit fixed values and
 * length-delimited fields, enough to write a message whose schema the caller knows. Sub-messages
 * are written into their own writer and then embedded with {@link #message}. Fields are written in
 * the order the caller writes them; proto3 defaults (empty strings, {@code false}, {@code 0}) are
 * the caller's to skip.
 *
 * <p>Not thread-safe.
 */
final class ProtoWriter {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A string field (UTF-8, length-delimited). */
    ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A bool field, written even when {@code false} (as a oneof member must be). */
    ProtoWriter bool(int field, boolean value) {
        tag(field, VARINT);
        varint(value ? 1 : 0);
        return this;
    }

    /** An int64 field; negative values take ten bytes, as in two's complement. */
    ProtoWriter int64(int field, long value) {
        tag(field, VARINT);
        varint(value);
        return this;
    }

    /** A double field (fixed 64 bits, little-endian IEEE 754). */
    ProtoWriter float64(int field, double value) {
        tag(field, FIXED64);
        long bits = Double.doubleToLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    /** An embedded message field, present even when {@code message} is empty. */
    ProtoWriter message(int field, ProtoWriter message) {
        return bytes(field, message.toByteArray());
    }

    ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        out.writeBytes(value);
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    private void tag(int field, int wireType) {
        if (field < 1 || field > 536_870_911) {
            throw new IllegalArgumentException("protobuf field number out of range: " + field);
        }
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
