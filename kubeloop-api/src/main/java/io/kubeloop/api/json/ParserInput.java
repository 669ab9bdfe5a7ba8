package io.kubeloop.api.json;

import io.kubeloop.api.internal.StringTable;
import io.kubeloop.api.internal.TimestampDeserializer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;

/**
 * A {@link JsonInput} over Jackson's parser: what a {@link ModelDeserializer} reads with when Jackson
 * calls it. Not thread-safe: one read on one thread.
 */
final class ParserInput extends JsonInput {

    private final JsonParser parser;
    private final DeserializationContext context;
    private final StringTable strings;
    private final ModelDeserializer<?> deserializers;
    /** The items of the lists and maps being read. */
    private final Collected collected = new Collected();
    /** The name of the property {@link #firstField} or {@link #nextField} moved to last. */
    private String field;

    /** The input of one read at {@code parser}'s current token, by {@code deserializers}. */
    ParserInput(JsonParser parser, DeserializationContext context, ModelDeserializer<?> deserializers) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.context = Objects.requireNonNull(context, "context");
        this.deserializers = Objects.requireNonNull(deserializers, "deserializers");
        this.strings = context.getAttribute(StringTable.class) instanceof StringTable t ? t : null;
    }

    @Override
    public boolean isNull() {
        return parser.currentToken() == JsonToken.VALUE_NULL;
    }

    @Override
    public String firstName(Class<?> type) {
        JsonToken t = parser.currentToken();
        String name;
        if (t == JsonToken.START_OBJECT) {
            name = parser.nextName();
        } else if (t == JsonToken.PROPERTY_NAME) {
            name = parser.currentName();
        } else if (t == JsonToken.END_OBJECT) {
            return null;
        } else {
            context.handleUnexpectedToken(type, parser);
            throw new IllegalStateException("Jackson accepted a " + t + " as " + type.getName());
        }
        if (name != null) {
            parser.nextToken();
        }
        return name;
    }

    @Override
    public String nextName() {
        String name = parser.nextName();
        if (name != null) {
            parser.nextToken();
        }
        return name;
    }

    @Override
    public int firstField(JsonFields fields) {
        String name = firstName(fields.type());
        field = name;
        return name == null ? END : fields.find(name);
    }

    @Override
    public int nextField(JsonFields fields) {
        String name = nextName();
        field = name;
        return name == null ? END : fields.find(name);
    }

    @Override
    public String fieldName() {
        return field;
    }

    @Override
    public void skip(Class<?> type, String name) {
        if (context.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)) {
            context.handleUnknownProperty(parser, null, type, name);
        }
        parser.skipChildren();
    }

    @Override
    void skipAny() {
        parser.skipChildren();
    }

    @Override
    public String string() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return strings == null
                    ? parser.getString()
                    : strings.share(parser.getStringCharacters(), parser.getStringOffset(), parser.getStringLength());
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        String s = context.readValue(parser, String.class);
        return strings == null ? s : strings.share(s);
    }

    @Override
    public Integer int32() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT) {
            return parser.getIntValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Integer.class);
    }

    @Override
    public Long int64() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return parser.getLongValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Long.class);
    }

    @Override
    public Double float64() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getDoubleValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Double.class);
    }

    @Override
    public Boolean bool() {
        return switch (parser.currentToken()) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> context.readValue(parser, Boolean.class);
        };
    }

    @Override
    public <T> List<T> list(Class<?> type, Function<JsonInput, T> item) {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.START_ARRAY) {
            int mark = collected.mark();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                collected.push(item.apply(this));
            }
            return collected.list(mark);
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (context.isEnabled(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)) {
            int mark = collected.mark();
            collected.push(item.apply(this));
            return collected.list(mark);
        }
        context.handleUnexpectedToken(context.getTypeFactory().constructCollectionType(List.class, type), parser);
        throw new IllegalStateException("Jackson accepted a " + t + " as a list");
    }

    @Override
    public <T> Map<String, T> map(Class<?> type, Function<JsonInput, T> value) {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_OBJECT && t != JsonToken.PROPERTY_NAME && t != JsonToken.END_OBJECT) {
            context.handleUnexpectedToken(
                    context.getTypeFactory().constructMapType(Map.class, String.class, type), parser);
            throw new IllegalStateException("Jackson accepted a " + t + " as a map");
        }
        return entries(collected, value);
    }

    @Override
    public <T> T value(Class<T> type) {
        ValueDeserializer<Object> deserializer = deserializers.deserializerOf(type, context);
        Object value = parser.currentToken() == JsonToken.VALUE_NULL
                ? deserializer.getNullValue(context)
                : deserializer.deserialize(parser, context);
        return type.cast(value);
    }

    @Override
    public Instant timestamp() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            Instant fast = TimestampDeserializer.parse(parser.getString());
            if (fast != null) {
                return fast;
            }
        }
        return value(Instant.class);
    }

    @Override
    public String text() {
        return parser.currentToken() == JsonToken.VALUE_STRING ? string() : null;
    }
}
