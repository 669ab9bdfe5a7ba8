package io.kubeloop.api.json;

import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.internal.StringTable;
import io.kubeloop.api.internal.TimestampDeserializer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;

/**
 * One read of a generated model from JSON: Jackson's parser and context, and the string table of the
 * read when it has one. The readers that {@code kubeloop generate models} writes into each kind's record
 * (through its {@link ModelDeserializer}) are straight-line code made of these calls — a {@code switch} over
 * each record's property names, no reflection and no per-property lookup — and hand only the types
 * outside the model to Jackson's own deserializers ({@link io.kubeloop.api.IntOrString}, JSON trees,
 * untyped values); {@link ObjectMeta} and Kubernetes timestamps it reads itself.
 *
 * <p>Each call reads the value at the parser's current token and leaves the parser on that value's
 * last token (the value itself for a scalar, {@code END_ARRAY} or {@code END_OBJECT} for a container),
 * with the results Jackson's own deserializers give for the same record under the same mapper: JSON
 * {@code null} reads as null (or as the deserializer's null value for types read by Jackson), absent
 * properties stay null, unknown properties are skipped unless the read enables {@code
 * FAIL_ON_UNKNOWN_PROPERTIES}, and a value of the wrong JSON type fails with Jackson's {@code
 * MismatchedInputException} (scalars of the wrong type go through Jackson's coercion rules). Strings
 * go through the read's {@code StringTable} when the reader carries one as the attribute of that class
 * (kubeloop's client does, for lists and watch streams), so equal strings across the objects of one
 * stream are one instance.
 *
 * <p>Not thread-safe: an instance belongs to one read on one thread.
 */
public final class JsonInput {

    private final JsonParser parser;
    private final DeserializationContext context;
    private final StringTable strings;
    private final ModelDeserializer<?> deserializers;

    /** The input of one read at {@code parser}'s current token, by {@code deserializers}. */
    JsonInput(JsonParser parser, DeserializationContext context, ModelDeserializer<?> deserializers) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.context = Objects.requireNonNull(context, "context");
        this.deserializers = Objects.requireNonNull(deserializers, "deserializers");
        this.strings = context.getAttribute(StringTable.class) instanceof StringTable t ? t : null;
    }

    /** Jackson's parser, on the current value. */
    public JsonParser parser() {
        return parser;
    }

    /** Jackson's context of this read. */
    public DeserializationContext context() {
        return context;
    }

    /** True when the current token is JSON {@code null}. */
    public boolean isNull() {
        return parser.currentToken() == JsonToken.VALUE_NULL;
    }

    /**
     * Enters the object at the current token ({@code START_OBJECT}, or a property name when Jackson
     * hands over mid-object) and moves to its first property's value.
     *
     * @param type the type being read, for the error when the current value is no object
     * @return the first property's name, or null for an empty object (then on its {@code END_OBJECT})
     */
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

    /**
     * Moves from the value just read to the next property's value.
     *
     * @return its name, or null at the end of the object (then on its {@code END_OBJECT})
     */
    public String nextName() {
        String name = parser.nextName();
        if (name != null) {
            parser.nextToken();
        }
        return name;
    }

    /**
     * Skips the current property's value, a property the record does not name: Jackson's unknown
     * property handling when the read enables {@code FAIL_ON_UNKNOWN_PROPERTIES}.
     */
    public void skip(Class<?> type, String name) {
        if (context.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)) {
            context.handleUnknownProperty(parser, null, type, name);
        }
        parser.skipChildren();
    }

    /**
     * Adds the current property, one the schema does not name, to {@code kept} as an untyped value
     * (maps, lists, strings, numbers, booleans), as Jackson's any-setter does.
     *
     * @param kept the properties kept so far, or null for none yet
     * @return {@code kept}, or a new map when it was null
     */
    public Map<String, Object> keep(Map<String, Object> kept, String name) {
        Map<String, Object> out = kept == null ? new LinkedHashMap<>() : kept;
        out.put(name, value(Object.class));
        return out;
    }

    /** The current string, or null; other scalars as Jackson coerces them to text. */
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

    /** The current 32-bit integer, or null. */
    public Integer int32() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT) {
            return parser.getIntValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Integer.class);
    }

    /** The current 64-bit integer, or null. */
    public Long int64() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return parser.getLongValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Long.class);
    }

    /** The current number as a double, or null. */
    public Double float64() {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getDoubleValue();
        }
        return t == JsonToken.VALUE_NULL ? null : context.readValue(parser, Double.class);
    }

    /** The current boolean, or null. */
    public Boolean bool() {
        return switch (parser.currentToken()) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> context.readValue(parser, Boolean.class);
        };
    }

    /**
     * The current array, each item read by {@code item} (positioned on the item), or null.
     *
     * @param type the list's element type, for the error when the current value is no array
     */
    public <T> List<T> list(Class<?> type, Function<JsonInput, T> item) {
        JsonToken t = parser.currentToken();
        if (t == JsonToken.START_ARRAY) {
            List<T> out = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                out.add(item.apply(this));
            }
            return out;
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (context.isEnabled(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)) {
            List<T> out = new ArrayList<>(1);
            out.add(item.apply(this));
            return out;
        }
        context.handleUnexpectedToken(context.getTypeFactory().constructCollectionType(List.class, type), parser);
        throw new IllegalStateException("Jackson accepted a " + t + " as a list");
    }

    /**
     * The current object as a map of its properties, each value read by {@code value} (positioned on
     * the value), in the object's order, or null.
     *
     * @param type the map's value type, for the error when the current value is no object
     */
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
        Map<String, T> out = new LinkedHashMap<>();
        for (String name = firstName(Map.class); name != null; name = nextName()) {
            out.put(name, value.apply(this));
        }
        return out;
    }

    /**
     * The current value read by Jackson's deserializer of {@code type} (JSON {@code null}: that
     * deserializer's null value), for the types a generated reader does not read itself.
     */
    public <T> T value(Class<T> type) {
        ValueDeserializer<Object> deserializer = deserializers.deserializerOf(type, context);
        Object value = parser.currentToken() == JsonToken.VALUE_NULL
                ? deserializer.getNullValue(context)
                : deserializer.deserialize(parser, context);
        return type.cast(value);
    }

    /**
     * The current timestamp ({@code date-time}), or null: RFC 3339 in UTC as Kubernetes writes it read
     * directly, anything else by Jackson's deserializer of {@link Instant}.
     */
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

    /**
     * The current {@link ObjectMeta}, or null, equal to what Jackson reads for it (unknown properties
     * are skipped whatever the read's features, as {@code ObjectMeta} declares).
     */
    public ObjectMeta objectMeta() {
        if (isNull()) {
            return null;
        }
        String name = null;
        String generateName = null;
        String namespace = null;
        String uid = null;
        String resourceVersion = null;
        Long generation = null;
        Instant creationTimestamp = null;
        Instant deletionTimestamp = null;
        Long deletionGracePeriodSeconds = null;
        Map<String, String> labels = null;
        Map<String, String> annotations = null;
        List<OwnerReference> ownerReferences = null;
        List<String> finalizers = null;
        List<ManagedFieldsEntry> managedFields = null;
        String selfLink = null;
        for (String property = firstName(ObjectMeta.class); property != null; property = nextName()) {
            switch (property) {
                case "name" -> name = string();
                case "generateName" -> generateName = string();
                case "namespace" -> namespace = string();
                case "uid" -> uid = string();
                case "resourceVersion" -> resourceVersion = string();
                case "generation" -> generation = int64();
                case "creationTimestamp" -> creationTimestamp = timestamp();
                case "deletionTimestamp" -> deletionTimestamp = timestamp();
                case "deletionGracePeriodSeconds" -> deletionGracePeriodSeconds = int64();
                case "labels" -> labels = map(String.class, JsonInput::string);
                case "annotations" -> annotations = map(String.class, JsonInput::string);
                case "ownerReferences" -> ownerReferences = list(OwnerReference.class, JsonInput::ownerReference);
                case "finalizers" -> finalizers = list(String.class, JsonInput::string);
                case "managedFields" -> managedFields = list(ManagedFieldsEntry.class, JsonInput::managedFieldsEntry);
                case "selfLink" -> selfLink = string();
                default -> parser.skipChildren();
            }
        }
        return new ObjectMeta(
                name,
                generateName,
                namespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                deletionGracePeriodSeconds,
                labels,
                annotations,
                ownerReferences,
                finalizers,
                managedFields,
                selfLink);
    }

    private OwnerReference ownerReference() {
        if (isNull()) {
            return null;
        }
        String apiVersion = null;
        String kind = null;
        String name = null;
        String uid = null;
        Boolean controller = null;
        Boolean blockOwnerDeletion = null;
        for (String property = firstName(OwnerReference.class); property != null; property = nextName()) {
            switch (property) {
                case "apiVersion" -> apiVersion = string();
                case "kind" -> kind = string();
                case "name" -> name = string();
                case "uid" -> uid = string();
                case "controller" -> controller = bool();
                case "blockOwnerDeletion" -> blockOwnerDeletion = bool();
                default -> parser.skipChildren();
            }
        }
        return new OwnerReference(apiVersion, kind, name, uid, controller, blockOwnerDeletion);
    }

    private ManagedFieldsEntry managedFieldsEntry() {
        if (isNull()) {
            return null;
        }
        String manager = null;
        String operation = null;
        String apiVersion = null;
        Instant time = null;
        String fieldsType = null;
        JsonNode fieldsV1 = null;
        String subresource = null;
        for (String property = firstName(ManagedFieldsEntry.class); property != null; property = nextName()) {
            switch (property) {
                case "manager" -> manager = string();
                case "operation" -> operation = string();
                case "apiVersion" -> apiVersion = string();
                case "time" -> time = timestamp();
                case "fieldsType" -> fieldsType = string();
                case "fieldsV1" -> fieldsV1 = value(JsonNode.class);
                case "subresource" -> subresource = string();
                default -> parser.skipChildren();
            }
        }
        return new ManagedFieldsEntry(manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource);
    }

    /**
     * The current string's text when the current value is a string (for enums: a generated reader
     * maps the known texts to constants and hands the rest to {@link #value}), else null. Shared
     * through the read's string table like {@link #string()}, so a repeated text is not copied again.
     */
    public String text() {
        return parser.currentToken() == JsonToken.VALUE_STRING ? string() : null;
    }
}
