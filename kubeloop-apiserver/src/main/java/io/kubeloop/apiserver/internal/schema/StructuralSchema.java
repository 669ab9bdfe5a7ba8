package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A structural OpenAPI v3 schema, as apiextensions-apiserver requires for CustomResourceDefinitions
 * and as kubeloop derives for built-in kinds: every object field and array item has a type (or is
 * {@code x-kubernetes-int-or-string} / {@code x-kubernetes-preserve-unknown-fields}), so the schema
 * alone says which fields exist. That is what makes {@linkplain #prune pruning} of unknown fields,
 * {@linkplain #applyDefaults defaulting} and {@linkplain #validate validation} possible.
 *
 * <p>Create one with {@link #of(JsonNode)} from a CRD's {@code openAPIV3Schema} (non-structural
 * schemas are rejected with the causes the real server gives), or get one for a built-in kind from
 * {@link BuiltinSchemas#forKind}. Built-in schemas may be recursive (a CRD's {@code JSONSchemaProps}
 * contains itself); every algorithm here walks the <em>object</em>, so recursion ends with the data.
 *
 * <p>The order of operations the real server applies on create and update, and that
 * {@link #admit} applies in one call: {@link #prune} (unknown fields, reported for
 * {@code fieldValidation}), {@link #dropNonNullableNulls}, {@link #applyDefaults}, {@link #validate}.
 *
 * <p><b>Thread safety:</b> immutable once published; all methods may be called concurrently. The
 * mutating methods change only the object passed in.
 *
 * @see <a href="https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema">Specifying a structural schema</a>
 */
public final class StructuralSchema {

    /** The empty schema: no type, no properties; objects under it lose all their fields when pruned. */
    static final StructuralSchema EMPTY = new Builder().build();

    private final String type;
    private final String format;
    private final String description;
    private final boolean nullable;
    private final Map<String, StructuralSchema> properties;
    private final StructuralSchema additionalProperties;
    private final StructuralSchema items;
    private final List<String> required;
    private final List<JsonNode> enumValues;
    private final JsonNode defaultValue;
    private final Double minimum;
    private final Double maximum;
    private final boolean exclusiveMinimum;
    private final boolean exclusiveMaximum;
    private final Double multipleOf;
    private final Long minLength;
    private final Long maxLength;
    private final Long minItems;
    private final Long maxItems;
    private final Long minProperties;
    private final Long maxProperties;
    private final String patternSource;
    private final Pattern pattern;
    private final boolean uniqueItems;
    private final boolean intOrString;
    private final boolean preserveUnknownFields;
    private final boolean embeddedResource;
    private final String listType;
    private final List<String> listMapKeys;
    private final String mapType;
    private final String patchMergeKey;
    private final String patchStrategy;
    private final List<StructuralSchema> allOf;
    private final List<StructuralSchema> anyOf;
    private final List<StructuralSchema> oneOf;
    private final StructuralSchema not;
    private final String definitionName;
    private final List<ValidationRule> validationRules;
    /** The definition this node references at one place, or null when it is not such a place. */
    private final StructuralSchema referenced;

    private StructuralSchema(Builder b) {
        type = b.type;
        format = b.format;
        description = b.description;
        nullable = b.nullable;
        // a view, not a copy: BuiltinSchemas fills the map of a recursive type after creating its node
        properties = Collections.unmodifiableMap(b.properties);
        additionalProperties = b.additionalProperties;
        items = b.items;
        required = List.copyOf(b.required);
        enumValues = List.copyOf(b.enumValues);
        defaultValue = b.defaultValue == null ? null : b.defaultValue.deepCopy();
        minimum = b.minimum;
        maximum = b.maximum;
        exclusiveMinimum = b.exclusiveMinimum;
        exclusiveMaximum = b.exclusiveMaximum;
        multipleOf = b.multipleOf;
        minLength = b.minLength;
        maxLength = b.maxLength;
        minItems = b.minItems;
        maxItems = b.maxItems;
        minProperties = b.minProperties;
        maxProperties = b.maxProperties;
        patternSource = b.pattern;
        pattern = b.pattern == null ? null : Pattern.compile(b.pattern);
        uniqueItems = b.uniqueItems;
        intOrString = b.intOrString;
        preserveUnknownFields = b.preserveUnknownFields;
        embeddedResource = b.embeddedResource;
        listType = b.listType;
        listMapKeys = List.copyOf(b.listMapKeys);
        mapType = b.mapType;
        patchMergeKey = b.patchMergeKey;
        patchStrategy = b.patchStrategy;
        allOf = List.copyOf(b.allOf);
        anyOf = List.copyOf(b.anyOf);
        oneOf = List.copyOf(b.oneOf);
        not = b.not;
        definitionName = b.definitionName;
        validationRules = List.copyOf(b.validationRules);
        referenced = null;
    }

    /** A place that references definition {@code d}: {@code d} with that place's marks. */
    private StructuralSchema(StructuralSchema d, String description, String patchStrategy, String mapType) {
        type = d.type;
        format = d.format;
        this.description = description;
        nullable = d.nullable;
        properties = d.properties; // the same view: a recursive definition's place sees it filled
        additionalProperties = d.additionalProperties;
        items = d.items;
        required = d.required;
        enumValues = d.enumValues;
        defaultValue = d.defaultValue;
        minimum = d.minimum;
        maximum = d.maximum;
        exclusiveMinimum = d.exclusiveMinimum;
        exclusiveMaximum = d.exclusiveMaximum;
        multipleOf = d.multipleOf;
        minLength = d.minLength;
        maxLength = d.maxLength;
        minItems = d.minItems;
        maxItems = d.maxItems;
        minProperties = d.minProperties;
        maxProperties = d.maxProperties;
        patternSource = d.patternSource;
        pattern = d.pattern;
        uniqueItems = d.uniqueItems;
        intOrString = d.intOrString;
        preserveUnknownFields = d.preserveUnknownFields;
        embeddedResource = d.embeddedResource;
        listType = d.listType;
        listMapKeys = d.listMapKeys;
        this.mapType = mapType;
        patchMergeKey = d.patchMergeKey;
        this.patchStrategy = patchStrategy;
        allOf = d.allOf;
        anyOf = d.anyOf;
        oneOf = d.oneOf;
        not = d.not;
        definitionName = d.definitionName;
        validationRules = d.validationRules;
        referenced = d;
    }

    /**
     * Reads a CRD version's {@code openAPIV3Schema} and checks that it is structural.
     *
     * @throws NonStructuralSchemaException with one cause per problem, fields relative to
     *     {@code openAPIV3Schema} (use {@link #of(JsonNode, String)} to name the CRD path)
     */
    public static StructuralSchema of(JsonNode openAPIV3Schema) {
        return of(openAPIV3Schema, "openAPIV3Schema");
    }

    /**
     * As {@link #of(JsonNode)}, with cause fields below {@code fieldPath}, e.g.
     * {@code spec.versions[0].schema.openAPIV3Schema} as the real server reports them.
     */
    public static StructuralSchema of(JsonNode openAPIV3Schema, String fieldPath) {
        return SchemaParser.parse(openAPIV3Schema, fieldPath);
    }

    /**
     * Validates an object (after pruning and defaulting) the way the real server validates custom
     * resources: one cause per violation, reasons {@code FieldValueRequired},
     * {@code FieldValueInvalid}, {@code FieldValueTypeInvalid}, {@code FieldValueNotSupported},
     * {@code FieldValueTooLong}, {@code FieldValueTooMany}; messages as kube-openapi words them,
     * e.g. field {@code spec.replicas}, message
     * {@code Invalid value: "string": spec.replicas in body must be of type integer: "string"}.
     *
     * @return the causes, empty when valid; wrap them in a 422 Invalid Status
     */
    public List<Status.Cause> validate(JsonNode object) {
        return SchemaValidator.validate(this, object);
    }

    /**
     * Removes fields the schema does not specify, in place, and returns their paths sorted
     * ({@code spec.foo}, {@code spec.containers[0].bar}, {@code metadata.baz}). {@code apiVersion},
     * {@code kind} and {@code metadata} are kept at the root and in embedded resources (metadata is
     * pruned against ObjectMeta); nothing under {@code x-kubernetes-preserve-unknown-fields} is
     * removed. The paths feed {@code fieldValidation}: see {@link FieldValidationCheck}.
     */
    public List<String> prune(ObjectNode object) {
        return Pruner.prune(object, this);
    }

    /**
     * Sets schema defaults in place where a field is absent (or null without {@code nullable}),
     * top-down, so a defaulted object gets its own properties' defaults too.
     */
    public void applyDefaults(ObjectNode object) {
        Defaulter.applyDefaults(object, this);
    }

    /** Removes null values of fields that are neither {@code nullable} nor defaulted, in place. */
    public void dropNonNullableNulls(ObjectNode object) {
        Defaulter.dropNonNullableNulls(object, this);
    }

    /**
     * Prunes, drops non-nullable nulls, defaults and validates, in that order, as the real server
     * does on create and update.
     */
    public Admission admit(ObjectNode object) {
        List<String> unknown = prune(object);
        dropNonNullableNulls(object);
        applyDefaults(object);
        return new Admission(unknown, validate(object));
    }

    /** {@code type}: {@code object}, {@code array}, {@code string}, {@code integer}, {@code number}, {@code boolean} or empty. */
    public String type() {
        return type;
    }

    /** {@code format}, e.g. {@code int32} or {@code date-time}; empty when unset. */
    public String format() {
        return format;
    }

    /** {@code description}; empty when unset. */
    public String description() {
        return description;
    }

    public boolean nullable() {
        return nullable;
    }

    /** Declared properties in schema order; read-only. */
    public Map<String, StructuralSchema> properties() {
        return properties;
    }

    /** The schema of map values ({@code additionalProperties}), if this is a map. */
    public Optional<StructuralSchema> additionalProperties() {
        return Optional.ofNullable(additionalProperties);
    }

    /** The schema of array items, if this is an array. */
    public Optional<StructuralSchema> items() {
        return Optional.ofNullable(items);
    }

    public List<String> required() {
        return required;
    }

    /** {@code enum} values; empty when unrestricted. */
    public List<JsonNode> enumValues() {
        return enumValues;
    }

    /** The {@code default}, a fresh copy each call. */
    public Optional<JsonNode> defaultValue() {
        return Optional.ofNullable(defaultValue).map(JsonNode::deepCopy);
    }

    public boolean intOrString() {
        return intOrString;
    }

    public boolean preserveUnknownFields() {
        return preserveUnknownFields;
    }

    public boolean embeddedResource() {
        return embeddedResource;
    }

    /** {@code x-kubernetes-list-type} ({@code atomic}, {@code set}, {@code map}); empty when unset. */
    public String listType() {
        return listType;
    }

    public List<String> listMapKeys() {
        return listMapKeys;
    }

    /** {@code x-kubernetes-map-type}; empty when unset. */
    public String mapType() {
        return mapType;
    }

    /** {@code x-kubernetes-patch-merge-key} (built-in kinds only); empty when unset. */
    public String patchMergeKey() {
        return patchMergeKey;
    }

    /** {@code x-kubernetes-patch-strategy}, e.g. {@code merge} or {@code merge,retainKeys}; empty when unset. */
    public String patchStrategy() {
        return patchStrategy;
    }

    /**
     * The OpenAPI definition name this node is published under (built-in types, e.g.
     * {@code io.k8s.api.apps.v1.DeploymentSpec}); empty for inline schemas.
     */
    public String definitionName() {
        return definitionName;
    }

    /**
     * This named definition as referenced at one place (a property's {@code $ref} with siblings, as
     * Kubernetes' OpenAPI writes them): the same schema, with that place's description (empty when it
     * gives none), strategic-merge patch strategy and map type.
     */
    StructuralSchema referencedAt(String description, String patchStrategy, String mapType) {
        return new StructuralSchema(referenced(), description, patchStrategy, mapType);
    }

    /** The definition this node stands for: itself, unless it is a {@linkplain #referencedAt place}. */
    StructuralSchema referenced() {
        return referenced == null ? this : referenced;
    }

    /** {@code x-kubernetes-validations}: CEL rules on this node's value, in schema order; read-only. */
    public List<ValidationRule> validationRules() {
        return validationRules;
    }

    Double minimum() {
        return minimum;
    }

    Double maximum() {
        return maximum;
    }

    boolean exclusiveMinimum() {
        return exclusiveMinimum;
    }

    boolean exclusiveMaximum() {
        return exclusiveMaximum;
    }

    Double multipleOf() {
        return multipleOf;
    }

    Long minLength() {
        return minLength;
    }

    /** {@code maxLength}: the most characters of a string; null when unbounded. */
    public Long maxLength() {
        return maxLength;
    }

    Long minItems() {
        return minItems;
    }

    /** {@code maxItems}: the most items of an array; null when unbounded. */
    public Long maxItems() {
        return maxItems;
    }

    Long minProperties() {
        return minProperties;
    }

    /** {@code maxProperties}: the most entries of a map; null when unbounded. */
    public Long maxProperties() {
        return maxProperties;
    }

    Pattern pattern() {
        return pattern;
    }

    String patternSource() {
        return patternSource;
    }

    boolean uniqueItems() {
        return uniqueItems;
    }

    List<StructuralSchema> allOf() {
        return allOf;
    }

    List<StructuralSchema> anyOf() {
        return anyOf;
    }

    List<StructuralSchema> oneOf() {
        return oneOf;
    }

    StructuralSchema not() {
        return not;
    }

    JsonNode rawDefault() {
        return defaultValue;
    }

    @Override
    public String toString() {
        String name = definitionName.isEmpty() ? "" : definitionName + " ";
        return "StructuralSchema[" + name + "type=" + type + ", properties=" + properties.keySet() + "]";
    }

    /** Mutable construction state; package-private, used by the parser and the model introspector. */
    static final class Builder {
        String type = "";
        String format = "";
        String description = "";
        boolean nullable;
        final LinkedHashMap<String, StructuralSchema> properties = new LinkedHashMap<>();
        StructuralSchema additionalProperties;
        StructuralSchema items;
        final List<String> required = new ArrayList<>();
        final List<JsonNode> enumValues = new ArrayList<>();
        JsonNode defaultValue;
        Double minimum;
        Double maximum;
        boolean exclusiveMinimum;
        boolean exclusiveMaximum;
        Double multipleOf;
        Long minLength;
        Long maxLength;
        Long minItems;
        Long maxItems;
        Long minProperties;
        Long maxProperties;
        String pattern;
        boolean uniqueItems;
        boolean intOrString;
        boolean preserveUnknownFields;
        boolean embeddedResource;
        String listType = "";
        final List<String> listMapKeys = new ArrayList<>();
        String mapType = "";
        String patchMergeKey = "";
        String patchStrategy = "";
        final List<StructuralSchema> allOf = new ArrayList<>();
        final List<StructuralSchema> anyOf = new ArrayList<>();
        final List<StructuralSchema> oneOf = new ArrayList<>();
        StructuralSchema not;
        String definitionName = "";
        final List<ValidationRule> validationRules = new ArrayList<>();

        Builder type(String t) {
            type = t;
            return this;
        }

        Builder format(String f) {
            format = f;
            return this;
        }

        Builder property(String name, StructuralSchema s) {
            properties.put(name, s);
            return this;
        }

        Builder items(StructuralSchema s) {
            items = s;
            return this;
        }

        Builder additionalProperties(StructuralSchema s) {
            additionalProperties = s;
            return this;
        }

        Builder preserveUnknownFields(boolean p) {
            preserveUnknownFields = p;
            return this;
        }

        Builder intOrString(boolean p) {
            intOrString = p;
            return this;
        }

        Builder definitionName(String n) {
            definitionName = n;
            return this;
        }

        StructuralSchema build() {
            return new StructuralSchema(this);
        }
    }
}
