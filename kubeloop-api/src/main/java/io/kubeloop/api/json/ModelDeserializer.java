package io.kubeloop.api.json;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Jackson's deserializer of a kind whose records {@code kubeloop generate models} wrote: the kind's
 * record names its subclass (the nested {@code JsonReader}) in {@code @JsonDeserialize}, and the subclass
 * hands each read to the reader generated with the records, which reads them straight from the parser
 * through a {@link JsonInput}.
 *
 * <p>The types a generated reader leaves to Jackson ({@link io.kubeloop.api.ObjectMeta}, timestamps,
 * JSON trees…) are looked up and contextualized once per deserializer, as Jackson's own bean
 * deserializers resolve their properties' deserializers once; Jackson keeps one instance of this
 * deserializer per mapper ({@link #isCachable()}). Thread-safe.
 *
 * @param <T> the kind's record
 */
public abstract class ModelDeserializer<T> extends ValueDeserializer<T> {

    private final Class<T> type;
    private final ConcurrentHashMap<Class<?>, ValueDeserializer<Object>> deserializers = new ConcurrentHashMap<>();

    /**
     * A deserializer of {@code type}.
     *
     * @param type the kind's record
     */
    protected ModelDeserializer(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Reads one {@code T} at the input's current token (the generated reader).
     *
     * @param in the read's input
     * @return the object, or null for JSON {@code null}
     */
    protected abstract T read(JsonInput in);

    /**
     * For a deserializer that reads several record types (the one each package of kubeloop's models of the
     * built-in kinds names in its records' {@code @JsonDeserialize}): the deserializer of {@code type}, which
     * Jackson reaches through {@code createContextual} and {@link JsonBytesReader#modelOf} through this method.
     *
     * @return the deserializer of {@code type}, or null when this one reads only its {@link #handledType()}
     */
    protected ModelDeserializer<?> forType(Class<?> type) {
        return null;
    }

    @Override
    public final T deserialize(JsonParser parser, DeserializationContext context) {
        return read(new ParserInput(parser, context, this));
    }

    @Override
    public final Class<?> handledType() {
        return type;
    }

    @Override
    public final boolean isCachable() {
        return true;
    }

    /** Jackson's contextualized deserializer of {@code valueType}, looked up once. */
    final ValueDeserializer<Object> deserializerOf(Class<?> valueType, DeserializationContext context) {
        ValueDeserializer<Object> known = deserializers.get(valueType);
        if (known != null) {
            return known;
        }
        ValueDeserializer<Object> found = context.findRootValueDeserializer(context.constructType(valueType));
        ValueDeserializer<Object> raced = deserializers.putIfAbsent(valueType, found);
        return raced != null ? raced : found;
    }
}
