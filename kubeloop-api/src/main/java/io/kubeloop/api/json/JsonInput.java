package io.kubeloop.api.json;

import io.kubeloop.api.IntOrString;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Quantity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * One read of a generated model from JSON, positioned on its current value. The readers that {@code kubeloop generate models} writes into each kind's record
 * (through its {@link ModelDeserializer}) are straight-line code made of these calls — a {@code switch} over
 * the numbers of each record's properties ({@link JsonFields}, from {@link #firstField} and {@link
 * #nextField}), no reflection — and hand only the types
 * outside the model to Jackson's own deserializers ({@link io.kubeloop.api.IntOrString}, JSON trees,
 * untyped values); {@link ObjectMeta} and Kubernetes timestamps it reads itself.
 *
 * <p>Each call reads the current value and moves past it (with Jackson's parser: leaves the parser on
 * the value's last token), with the results Jackson's own deserializers give for the same record under the same mapper: JSON
 * {@code null} reads as null (or as the deserializer's null value for types read by Jackson), absent
 * properties stay null, unknown properties are skipped unless the read enables {@code
 * FAIL_ON_UNKNOWN_PROPERTIES}, and a value of the wrong JSON type fails with Jackson's {@code
 * MismatchedInputException} (scalars of the wrong type go through Jackson's coercion rules). Strings
 * go through the read's {@code StringTable} when the reader carries one as the attribute of that class
 * (kubeloop's client does, for lists and watch streams), so equal strings across the objects of one
 * stream are one instance.
 *
 * <p>Two implementations: over Jackson's parser (when Jackson calls the kind's {@link
 * ModelDeserializer}), and straight over UTF-8 bytes ({@link JsonBytesReader}, kubeloop's client's
 * lists and watches), which hands anything unusual back to Jackson.
 *
 * <p>Not thread-safe: an instance belongs to one read on one thread.
 */
public abstract sealed class JsonInput permits ParserInput, BytesInput {

    JsonInput() {}

    /** True when the current value is JSON {@code null} (which is then read). */
    public abstract boolean isNull();

    /**
     * Enters the object that is the current value and moves to its first property's value.
     *
     * @param type the type being read, for the error when the current value is no object
     * @return the first property's name, or null for an empty object (then read)
     */
    public abstract String firstName(Class<?> type);

    /**
     * Moves from the value just read to the next property's value.
     *
     * @return its name, or null at the end of the object (then read)
     */
    public abstract String nextName();

    /**
     * Skips the current property's value, a property the record does not name: Jackson's unknown
     * property handling when the read enables {@code FAIL_ON_UNKNOWN_PROPERTIES}.
     */
    public abstract void skip(Class<?> type, String name);

    /** What {@link #firstField} and {@link #nextField} return at the end of the object. */
    public static final int END = -1;

    /** What {@link #firstField} and {@link #nextField} return for a property the fields do not name. */
    public static final int UNKNOWN = -2;

    /**
     * Enters the object that is the current value and moves to its first property's value: {@link
     * #firstName} answering with the property's number in {@code fields}.
     *
     * @return the property's number, {@link #UNKNOWN} for a name {@code fields} does not have (then
     *     {@link #fieldName()} gives it), or {@link #END} for an empty object (then read)
     */
    public abstract int firstField(JsonFields fields);

    /**
     * Moves from the value just read to the next property's value: {@link #nextName} answering with
     * the property's number in {@code fields}.
     *
     * @return the property's number, {@link #UNKNOWN} or {@link #END} as for {@link #firstField}
     */
    public abstract int nextField(JsonFields fields);

    /** The name of the property whose value is current, after {@link #firstField} or {@link #nextField}. */
    public abstract String fieldName();

    /**
     * Skips the current property's value, one that {@code fields} does not name: {@link #skip} for
     * {@code fields}' type and the property's name.
     */
    public void skipField(JsonFields fields) {
        skip(fields.type(), fieldName());
    }

    /** Skips the current value, whatever the read's features. */
    abstract void skipAny();

    /**
     * Adds the current property, one the schema does not name, to {@code kept} as an untyped value
     * (maps, lists, strings, numbers, booleans), as Jackson's any-setter does.
     *
     * @param kept the properties kept so far, or null for none yet
     * @return {@code kept}, or a new map when it was null
     */
    public final Map<String, Object> keep(Map<String, Object> kept, String name) {
        Map<String, Object> out = kept == null ? new LinkedHashMap<>() : kept;
        out.put(name, value(Object.class));
        mutableValueRead(); // the map
        return out;
    }

    /** Notes that the record being read holds a value that can be changed (not to be shared). */
    void mutableValueRead() {}

    /** The current string, or null; other scalars as Jackson coerces them to text. */
    public abstract String string();

    /** The current 32-bit integer, or null. */
    public abstract Integer int32();

    /** The current 64-bit integer, or null. */
    public abstract Long int64();

    /** The current number as a double, or null. */
    public abstract Double float64();

    /** The current boolean, or null. */
    public abstract Boolean bool();

    /**
     * The current array, each item read by {@code item} (positioned on the item), or null. The list is
     * unmodifiable and compact (the empty list shared, one or two items in one object), equal to the
     * {@code ArrayList} Jackson's reflective binding reads.
     *
     * @param type the list's element type, for the error when the current value is no array
     */
    public abstract <T> List<T> list(Class<?> type, Function<JsonInput, T> item);

    /**
     * The current object as a map of its properties, each value read by {@code value} (positioned on
     * the value), in the object's order, or null. The map is unmodifiable and compact (a small one keeps
     * its names and values in one array), equal to the {@code LinkedHashMap} Jackson's reflective binding
     * reads.
     *
     * @param type the map's value type, for the error when the current value is no object
     */
    public abstract <T> Map<String, T> map(Class<?> type, Function<JsonInput, T> value);

    /**
     * The properties of the object that is the current value, each value read by {@code value}, as a map
     * built by {@code collected}: the common part of {@link #map} once the value is known to be an object.
     */
    final <T> Map<String, T> entries(Collected collected, Function<JsonInput, T> value) {
        int mark = collected.mark();
        for (String name = firstName(Map.class); name != null; name = nextName()) {
            collected.push(name);
            collected.push(value.apply(this));
        }
        return collected.map(mark);
    }

    /**
     * The current value read by Jackson's deserializer of {@code type} (JSON {@code null}: that
     * deserializer's null value), for the types a generated reader does not read itself.
     */
    public abstract <T> T value(Class<T> type);

    /**
     * The current value read by {@code readers[index]} (a {@code Function<JsonInput, T>}): how a generated
     * reader reads a nested record. The reader is taken from the table at run time, not called directly, so
     * that the JIT compiles each record's reader once, on its own, instead of inlining every nested reader
     * into its parent's: the large readers of a kind like Argo CD's Application otherwise take seconds of
     * compilation, on the same cores that read the objects.
     *
     * @param readers the kind's table of nested readers
     * @param index the reader's index
     */
    public final <T> T record(Function<?, ?>[] readers, int index) {
        @SuppressWarnings("unchecked") // the generated table holds Function<JsonInput, T> at index
        Function<JsonInput, T> reader = (Function<JsonInput, T>) readers[index];
        return reader.apply(this);
    }

    /**
     * As {@link #record}, sharing equal records: reading from bytes ({@link JsonBytesReader}), a small
     * object whose bytes equal those of one the stream read before with the same reader is that record
     * again, not parsed a second time, provided nothing in it can be changed (no JSON object or array, no
     * map of unknown fields; see the reader's Javadoc). Over a parser it is {@link #record}.
     *
     * @param readers the kind's table of nested readers
     * @param index the reader's index
     */
    public <T> T sharedRecord(Function<?, ?>[] readers, int index) {
        return record(readers, index);
    }

    /**
     * The current {@link Quantity} (a string, or a number as Kubernetes also accepts), or null, as Jackson
     * reads it. From bytes, equal quantities of one stream are one instance (quantities are immutable).
     */
    public Quantity quantity() {
        return value(Quantity.class);
    }

    /** The current {@link IntOrString} (a number or a string), or null, as Jackson reads it. */
    public IntOrString intOrString() {
        return value(IntOrString.class);
    }

    /**
     * The current {@code fieldsV1} of a managed-fields entry as a tree that cannot be changed ({@link
     * Frozen#tree}), or null. From bytes, equal trees of one stream are one: the managers of a stream's objects
     * record the same field sets again and again.
     */
    JsonNode fieldsTree() {
        return Frozen.tree(value(JsonNode.class));
    }

    /**
     * The current timestamp ({@code date-time}), or null: RFC 3339 in UTC as Kubernetes writes it read
     * directly, anything else by Jackson's deserializer of {@link Instant}.
     */
    public abstract Instant timestamp();

    /**
     * The current string's text when the current value is a string, else null (the value is then not
     * read). Shared like {@link #string()}. For enums: a generated reader maps the known texts to
     * constants and hands anything else to {@link #value} right after this call, which reads the same
     * value with Jackson's enum deserializer (the text included).
     */
    public abstract String text();

    private static final JsonFields OBJECT_META = JsonFields.of(
            ObjectMeta.class,
            "name",
            "generateName",
            "namespace",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "labels",
            "annotations",
            "ownerReferences",
            "finalizers",
            "managedFields",
            "selfLink");

    private static final JsonFields OWNER_REFERENCE = JsonFields.of(
            OwnerReference.class, "apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion");

    private static final JsonFields MANAGED_FIELDS_ENTRY = JsonFields.of(
            ManagedFieldsEntry.class,
            "manager",
            "operation",
            "apiVersion",
            "time",
            "fieldsType",
            "fieldsV1",
            "subresource");

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
        for (int field = firstField(OBJECT_META); field != END; field = nextField(OBJECT_META)) {
            switch (field) {
                case 0 -> name = string();
                case 1 -> generateName = string();
                case 2 -> namespace = string();
                case 3 -> uid = string();
                case 4 -> resourceVersion = string();
                case 5 -> generation = int64();
                case 6 -> creationTimestamp = timestamp();
                case 7 -> deletionTimestamp = timestamp();
                case 8 -> deletionGracePeriodSeconds = int64();
                case 9 -> labels = map(String.class, JsonInput::string);
                case 10 -> annotations = map(String.class, JsonInput::string);
                case 11 -> ownerReferences = list(OwnerReference.class, JsonInput::ownerReference);
                case 12 -> finalizers = list(String.class, JsonInput::string);
                case 13 -> managedFields = list(ManagedFieldsEntry.class, JsonInput::managedFieldsEntry);
                case 14 -> selfLink = string();
                default -> skipAny();
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
        for (int field = firstField(OWNER_REFERENCE); field != END; field = nextField(OWNER_REFERENCE)) {
            switch (field) {
                case 0 -> apiVersion = string();
                case 1 -> kind = string();
                case 2 -> name = string();
                case 3 -> uid = string();
                case 4 -> controller = bool();
                case 5 -> blockOwnerDeletion = bool();
                default -> skipAny();
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
        for (int field = firstField(MANAGED_FIELDS_ENTRY); field != END; field = nextField(MANAGED_FIELDS_ENTRY)) {
            switch (field) {
                case 0 -> manager = string();
                case 1 -> operation = string();
                case 2 -> apiVersion = string();
                case 3 -> time = timestamp();
                case 4 -> fieldsType = string();
                case 5 -> fieldsV1 = fieldsTree();
                case 6 -> subresource = string();
                default -> skipAny();
            }
        }
        return new ManagedFieldsEntry(manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource);
    }
}
