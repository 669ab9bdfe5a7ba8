package io.kubeloop.api.internal;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;

/**
 * Reads {@link Instant}s, with a fast path for the form Kubernetes writes every timestamp in: RFC 3339 in
 * UTC, {@code 2024-01-02T03:04:05Z}, optionally with a fraction of up to nine digits
 * ({@code 2024-01-02T03:04:05.123456Z}). Everything else — offsets, numbers, a {@code @JsonFormat} on the
 * property, malformed text — is left to Jackson's own Instant deserializer, so results and errors are
 * Jackson's.
 *
 * <p>Stateless; thread-safe.
 */
public final class TimestampDeserializer extends StdScalarDeserializer<Instant> {

    private final ValueDeserializer<?> jackson;

    /** A deserializer that falls back to Jackson's {@link InstantDeserializer#INSTANT}. */
    public TimestampDeserializer() {
        this(InstantDeserializer.INSTANT);
    }

    private TimestampDeserializer(ValueDeserializer<?> jackson) {
        super(Instant.class);
        this.jackson = jackson;
    }

    @Override
    public ValueDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
        ValueDeserializer<?> contextual = jackson.createContextual(ctxt, property);
        return contextual == jackson ? this : contextual;
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            Instant fast = parse(p.getString());
            if (fast != null) {
                return fast;
            }
        }
        return (Instant) jackson.deserialize(p, ctxt);
    }

    /** {@code text} as an Instant when it is {@code YYYY-MM-DDTHH:MM:SS[.fraction]Z} and valid; else null. */
    public static Instant parse(String text) {
        if (text.length() < 20 || text.length() > 30) {
            return null;
        }
        byte[] latin1 = text.getBytes(StandardCharsets.ISO_8859_1); // other characters become '?': not accepted
        return parse(latin1, 0, latin1.length);
    }

    /**
     * The characters {@code b[from, to)} (one byte each) as an Instant when they are {@code
     * YYYY-MM-DDTHH:MM:SS[.fraction]Z} and valid; else null.
     */
    public static Instant parse(byte[] b, int from, int to) {
        int n = to - from;
        if (n < 20 || n > 30 || b[to - 1] != 'Z') {
            return null;
        }
        if (b[from + 4] != '-'
                || b[from + 7] != '-'
                || b[from + 10] != 'T'
                || b[from + 13] != ':'
                || b[from + 16] != ':') {
            return null;
        }
        int year = digits(b, from, from + 4);
        int month = digits(b, from + 5, from + 7);
        int day = digits(b, from + 8, from + 10);
        int hour = digits(b, from + 11, from + 13);
        int minute = digits(b, from + 14, from + 16);
        int second = digits(b, from + 17, from + 19);
        if ((year | month | day | hour | minute | second) < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (n > 20) {
            if (b[from + 19] != '.' || n == 21) {
                return null;
            }
            int fraction = digits(b, from + 20, to - 1);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction;
            for (int k = n - 1 - 20; k < 9; k++) {
                nanos *= 10;
            }
        } else if (b[from + 19] != 'Z') {
            return null;
        }
        try {
            long days = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
        } catch (DateTimeException invalid) {
            return null; // Jackson reports it
        }
    }

    /** The decimal value of {@code b[from, to)}, or -1 when a byte is not a digit. */
    private static int digits(byte[] b, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }
}
