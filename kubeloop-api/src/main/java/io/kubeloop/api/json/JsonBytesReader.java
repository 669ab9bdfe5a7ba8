package io.kubeloop.api.json;

import io.kubeloop.api.Quantity;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.internal.StringTable;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the kinds whose records {@code kubeloop generate models} wrote straight from UTF-8 JSON bytes,
 * without a Jackson parser: the generated reader over a {@link JsonInput} on the bytes themselves. It is
 * the fast path of kubeloop's client for the objects of a list or a watch, and gives what Jackson gives
 * for the same bytes — where it meets anything it does not read itself (a value of a JSON type the
 * schema does not give, which Jackson would coerce or refuse, malformed JSON) it returns null, and the
 * caller reads the object with Jackson, whose result or error is the answer. Types the generated reader
 * leaves to Jackson ({@code IntOrString}, JSON trees, untyped values) are read by Jackson from their own
 * bytes, with {@code mapper}.
 *
 * <p>The strings of the objects one reader reads are shared (one instance per distinct value, as the
 * client's other decoders share them), and so are its small nested records (those a generated reader
 * reads with {@link JsonInput#sharedRecord}) that hold nothing that can be changed — no JSON object or
 * array, no map of unknown fields: a nested object whose JSON bytes equal those of one the reader read
 * before, with the same record reader, is that record again, found in a bounded table (2,048 objects of at
 * most 384 bytes) and not parsed a second time. A record reader whose objects seldom repeat stops being
 * looked up. Equal timestamps read close together are one {@link java.time.Instant}, and a managed-fields
 * entry's {@code fieldsV1} is kept as its JSON bytes until something reads it. Sharing shows only in
 * identity: such records cannot be changed.
 * Not thread-safe: one reader per list or watch stream.
 */
public final class JsonBytesReader {

    private final JsonMapper mapper;
    // the stream's string tables, which its BytesInputs read through (package-private for them)
    final StringTable values = new StringTable();
    final StringTable names = new StringTable(1024);
    final ShortNames shortNames = new ShortNames(11);
    final ShortNames shortValues = new ShortNames(12);
    final Collected collected = new Collected();
    final SharedRecords shared = new SharedRecords();
    private final Map<Class<?>, ObjectReader> readers = new HashMap<>();
    /** The quantities this stream read, by their text: equal ones are one instance (they are immutable). */
    final Map<String, Quantity> quantities = new HashMap<>();

    private int end;
    /** The instants this stream read last, by their second: an equal one is that instance (they are immutable). */
    private final Instant[] instants = new Instant[256];
    /** Where {@link BytesInput} reads strings with escapes or non-ASCII text. */
    final EscapedStrings escapedStrings = new EscapedStrings();

    /**
     * A reader for one stream.
     *
     * @param mapper reads the values the generated readers leave to Jackson; it must not fail on unknown
     *     properties (the generated readers skip them)
     * @throws IllegalArgumentException when {@code mapper} fails on unknown properties
     */
    public JsonBytesReader(JsonMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        if (mapper.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)) {
            throw new IllegalArgumentException("the mapper fails on unknown properties");
        }
    }

    /**
     * The generated deserializer of {@code type}: the {@link ModelDeserializer} its {@code @JsonDeserialize}
     * names. Empty for any other type, and when that deserializer cannot be created from here (a module
     * that does not export the model's package).
     */
    public static <T> Optional<ModelDeserializer<T>> modelOf(Class<T> type) {
        JsonDeserialize annotation = type.getAnnotation(JsonDeserialize.class);
        if (annotation == null || !ModelDeserializer.class.isAssignableFrom(annotation.using())) {
            return Optional.empty();
        }
        try {
            ModelDeserializer<?> model =
                    (ModelDeserializer<?>) annotation.using().getConstructor().newInstance();
            if (model.handledType() != type) {
                model = model.forType(type);
            }
            if (model == null || model.handledType() != type) {
                return Optional.empty();
            }
            @SuppressWarnings("unchecked") // handledType() is type
            ModelDeserializer<T> typed = (ModelDeserializer<T>) model;
            return Optional.of(typed);
        } catch (ReflectiveOperationException | RuntimeException notReachable) {
            return Optional.empty();
        }
    }

    /**
     * The object at {@code json[from, to)} (one JSON object, whitespace around it allowed), or null when
     * Jackson must read it.
     */
    public <T> T read(ModelDeserializer<T> model, byte[] json, int from, int to) {
        T object = readFirst(model, json, from, to);
        return object != null && JsonScanner.skipSpace(json, end, to) == to ? object : null;
    }

    /**
     * The JSON object starting at {@code json[from]} (after whitespace) and ending within {@code json[from,
     * limit)}, which may go on after it; or null when Jackson must read it, or when the object does not end
     * before {@code limit}. After a non-null result, {@link #end()} is the index just past the object.
     */
    public <T> T readFirst(ModelDeserializer<T> model, byte[] json, int from, int limit) {
        Objects.checkFromToIndex(from, limit, json.length);
        collected.reset(); // after a read that failed midway
        BytesInput in = new BytesInput(json, JsonScanner.skipSpace(json, from, limit), limit, this);
        try {
            T object = model.read(in);
            end = in.pos;
            return object;
        } catch (BytesInput.Fallback jackson) {
            return null;
        }
    }

    /**
     * {@code read}, or an equal instant this stream read before: the timestamps of one object and of a
     * stream's objects often fall on the same second (creation, scheduling, start, the conditions).
     */
    Instant instant(Instant read) {
        int slot =
                (int) (read.getEpochSecond() ^ (read.getEpochSecond() >>> 8) ^ read.getNano()) & (instants.length - 1);
        Instant known = instants[slot];
        if (read.equals(known)) {
            return known;
        }
        instants[slot] = read;
        return read;
    }

    /** The index just past the object that {@link #readFirst} returned last. */
    public int end() {
        return end;
    }

    /** Remembers {@code quantity}, read from {@code text} (at most 4,096 texts a stream). */
    Quantity quantity(String text, Quantity quantity) {
        if (quantities.size() >= 4096) {
            quantities.clear();
        }
        quantities.put(text, quantity);
        return quantity;
    }

    /** Jackson's reader of {@code type} (created once per reader). */
    ObjectReader readerOf(Class<?> type) {
        ObjectReader reader = readers.get(type);
        if (reader == null) {
            reader = mapper.readerFor(type);
            readers.put(type, reader);
        }
        return reader;
    }
}
