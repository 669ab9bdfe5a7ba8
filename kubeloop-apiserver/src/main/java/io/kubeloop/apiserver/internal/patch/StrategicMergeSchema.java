package io.kubeloop.apiserver.internal.patch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * How the fields of one type merge: the facts that Go struct tags and {@code +listType}-style markers
 * give the real API server, for strategic merge patch and for server-side apply.
 *
 * <p>A node describes a field's value. For a list field it describes the list <em>and</em> its items:
 * {@link #field(String)} then looks into the item type, as apimachinery's
 * {@code LookupPatchMetadataForSlice} does. Per node:
 * <ul>
 *   <li>strategic merge patch: {@link #mergeList()} ({@code patchStrategy:"merge"}), its
 *       {@link #patchMergeKey()} (empty for lists of primitives such as {@code finalizers}) and
 *       {@link #retainKeys()} ({@code patchStrategy:"retainKeys"}, which clients use to send
 *       {@code $retainKeys}); a list without the merge strategy is replaced as a whole;</li>
 *   <li>server-side apply: the {@link #listType()} ({@code atomic}, {@code set} or {@code map} with
 *       {@link #listMapKeys()} and their defaults, e.g. container ports by {@code containerPort} and
 *       {@code protocol} defaulting to {@code TCP}); whether an object value is {@link #atomic()}
 *       ({@code +structType=atomic}, {@code +mapType=atomic}) or granular; whether it is a
 *       {@link #isMap()} whose keys are data (so its entries are tracked as items) rather than a struct;
 *       and whether it is {@link #alwaysPresent()} (a Go non-pointer struct, always serialized, so never
 *       "added" or "removed" as a whole).</li>
 * </ul>
 * Unknown fields get {@link #EMPTY}: lists atomic and replaced, objects granular and merged — the
 * behaviour of a field without tags.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 */
public final class StrategicMergeSchema {

    /** How server-side apply treats a list. */
    public enum ListType {
        /** The list is one value, owned and replaced as a whole (the default). */
        ATOMIC,
        /** A set of scalars; each value is owned separately ({@code v:} in FieldsV1). */
        SET,
        /** Objects identified by key fields; each item is owned separately ({@code k:} in FieldsV1). */
        MAP
    }

    /** The schema of a field nothing is known about. */
    public static final StrategicMergeSchema EMPTY = builder().build();

    private final Map<String, StrategicMergeSchema> fields;
    private final StrategicMergeSchema values;
    private final boolean atomic;
    private final boolean alwaysPresent;
    private final boolean mergeList;
    private final String patchMergeKey;
    private final boolean retainKeys;
    private final ListType listType;
    private final List<String> listMapKeys;
    private final Map<String, JsonNode> keyDefaults;

    private StrategicMergeSchema(Builder b) {
        this.fields = Map.copyOf(b.fields);
        this.values = b.values;
        this.atomic = b.atomic;
        this.alwaysPresent = b.alwaysPresent;
        this.mergeList = b.mergeList;
        this.patchMergeKey = b.patchMergeKey;
        this.retainKeys = b.retainKeys;
        this.listType = b.listType;
        this.listMapKeys = b.listMapKeys.stream().sorted().toList();
        this.keyDefaults = Map.copyOf(b.keyDefaults);
    }

    /** A builder for a new node. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this node, to derive a variant. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.fields.putAll(fields);
        b.values = values;
        b.atomic = atomic;
        b.alwaysPresent = alwaysPresent;
        b.mergeList = mergeList;
        b.patchMergeKey = patchMergeKey;
        b.retainKeys = retainKeys;
        b.listType = listType;
        b.listMapKeys = listMapKeys;
        b.keyDefaults.putAll(keyDefaults);
        return b;
    }

    /** The schema of a member (of the item type, for a list): declared, the map-value schema, or {@link #EMPTY}. */
    public StrategicMergeSchema field(String name) {
        StrategicMergeSchema f = fields.get(name);
        if (f != null) {
            return f;
        }
        return values != null ? values : EMPTY;
    }

    /** Whether {@code name} is a declared struct field (as opposed to a map key). */
    public boolean declares(String name) {
        return fields.containsKey(name);
    }

    /** The declared struct fields. */
    public Map<String, StrategicMergeSchema> fields() {
        return fields;
    }

    /** True when this object's keys are data (e.g. {@code labels}): its entries are tracked as items. */
    public boolean isMap() {
        return values != null;
    }

    /** The schema of this map's values, when {@link #isMap()}. */
    public Optional<StrategicMergeSchema> values() {
        return Optional.ofNullable(values);
    }

    /** Server-side apply: an object value (or each object item, for a list) is owned as a whole. */
    public boolean atomic() {
        return atomic;
    }

    /** A Go non-pointer struct or non-omitempty list: always present in the real server's objects, never added or removed. */
    public boolean alwaysPresent() {
        return alwaysPresent;
    }

    /** Strategic merge patch: the list merges ({@code patchStrategy:"merge"}) instead of being replaced. */
    public boolean mergeList() {
        return mergeList;
    }

    /** Strategic merge patch: the merge key of a merging list of objects; empty for scalars. */
    public String patchMergeKey() {
        return patchMergeKey;
    }

    /** Strategic merge patch: the field carries the {@code retainKeys} strategy. */
    public boolean retainKeys() {
        return retainKeys;
    }

    /** Server-side apply: how the list is owned. */
    public ListType listType() {
        return listType;
    }

    /** Server-side apply: the key fields of a {@link ListType#MAP} list, sorted by name. */
    public List<String> listMapKeys() {
        return listMapKeys;
    }

    /** The value a missing key field takes (e.g. {@code protocol: TCP}), if it has a default. */
    public Optional<JsonNode> keyDefault(String keyField) {
        return Optional.ofNullable(keyDefaults.get(keyField));
    }

    /**
     * Builds a {@link StrategicMergeSchema}. Not thread-safe; the built node is immutable.
     */
    public static final class Builder {
        private final Map<String, StrategicMergeSchema> fields = new LinkedHashMap<>();
        private StrategicMergeSchema values;
        private boolean atomic;
        private boolean alwaysPresent;
        private boolean mergeList;
        private String patchMergeKey = "";
        private boolean retainKeys;
        private ListType listType = ListType.ATOMIC;
        private List<String> listMapKeys = List.of();
        private final Map<String, JsonNode> keyDefaults = new LinkedHashMap<>();

        private Builder() {}

        /** Declares a struct field. */
        public Builder field(String name, StrategicMergeSchema schema) {
            fields.put(Objects.requireNonNull(name), Objects.requireNonNull(schema));
            return this;
        }

        /** Declares all fields of {@code type} (e.g. the item type of a list). */
        public Builder fieldsOf(StrategicMergeSchema type) {
            fields.putAll(type.fields);
            if (type.values != null) {
                values = type.values;
            }
            atomic = atomic || type.atomic;
            return this;
        }

        /** Marks the object as a map whose keys are data, values described by {@code valueSchema}. */
        public Builder mapOf(StrategicMergeSchema valueSchema) {
            values = Objects.requireNonNull(valueSchema);
            return this;
        }

        /** Marks object values as atomic for server-side apply. */
        public Builder atomic() {
            atomic = true;
            return this;
        }

        /** Marks a Go non-pointer struct. */
        public Builder alwaysPresent() {
            alwaysPresent = true;
            return this;
        }

        /** Strategic merge: the list merges by {@code key} (empty for a list of scalars). */
        public Builder mergeBy(String key) {
            mergeList = true;
            patchMergeKey = Objects.requireNonNull(key);
            return this;
        }

        /** Strategic merge: the field carries the retainKeys strategy. */
        public Builder retainKeys() {
            retainKeys = true;
            return this;
        }

        /** Server-side apply: the list is a set of scalars. */
        public Builder listSet() {
            listType = ListType.SET;
            return this;
        }

        /** Server-side apply: the list is a map keyed by {@code keys}. */
        public Builder listMap(String... keys) {
            if (keys.length == 0) {
                throw new IllegalArgumentException("a map list needs at least one key");
            }
            listType = ListType.MAP;
            listMapKeys = List.of(keys);
            return this;
        }

        /** Server-side apply: the value a missing key field defaults to. */
        public Builder keyDefault(String keyField, JsonNode value) {
            keyDefaults.put(keyField, value);
            return this;
        }

        /** The immutable node. */
        public StrategicMergeSchema build() {
            return new StrategicMergeSchema(this);
        }
    }
}
