package io.kubeloop.apiserver.internal.cel;

import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The sizes Kubernetes' CEL cost estimation assumes for the values a schema node admits, as
 * kube-apiserver derives them for its declared types: the most elements a value can have
 * ({@code maxItems}, {@code maxProperties}, four bytes per character of {@code maxLength}, the longest
 * {@code enum} value, or as many as fit in a 3 MiB request) and the fewest bytes a value serializes to
 * in JSON (which bounds how often a node can repeat in one request). Types CEL cannot see (no type and
 * not int-or-string, lists and maps of them) have no sizes ({@code null}). At the root and in embedded
 * resources {@code apiVersion}, {@code kind} and a {@code metadata} with {@code name} (at most 253
 * characters) and {@code generateName} (252) are fields too.
 *
 * <p>Immutable.
 *
 * @param maxElements the most characters, bytes, items or entries a value has; 0 for objects and scalars
 * @param minSerializedSize the fewest bytes the value takes in JSON
 * @param fields object fields by their CEL (escaped) name
 * @param element list items' or map values' sizes, or null
 * @param key map keys' sizes, or null
 */
record ValueSizes(
        long maxElements, long minSerializedSize, Map<String, ValueSizes> fields, ValueSizes element, ValueSizes key) {

    /** The largest request kube-apiserver accepts; the bound of every unbounded size. */
    static final long MAX_REQUEST_BYTES = 3 * 1024 * 1024;

    private static final long NAME_MAX_LENGTH = 253;
    private static final ValueSizes MAP_KEY = scalar(0, 2);

    /** The sizes of {@code schema}'s values, or null when CEL cannot see them. */
    static ValueSizes of(StructuralSchema schema, boolean resourceRoot) {
        if (schema.intOrString()) {
            Long maxLength = schema.maxLength();
            return scalar(maxLength != null ? zeroIfNegative(maxLength) * 4 : MAX_REQUEST_BYTES - 2, 1);
        }
        return switch (schema.type()) {
            case "array" -> array(schema);
            case "object" -> object(schema, resourceRoot);
            case "string" -> string(schema);
            case "boolean" -> scalar(0, 4);
            case "number", "integer" -> scalar(0, 1);
            default -> null;
        };
    }

    /** The sizes below {@code path} (field names, {@code @items}, {@code @values}, {@code @keys}), or null. */
    ValueSizes at(List<String> path) {
        ValueSizes current = this;
        for (String step : path) {
            current = switch (step) {
                case "@items", "@values" -> current.element;
                case "@keys" -> current.key;
                default -> current.fields.get(step);
            };
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    private static ValueSizes scalar(long maxElements, long minSerializedSize) {
        return new ValueSizes(maxElements, minSerializedSize, Map.of(), null, null);
    }

    private static ValueSizes array(StructuralSchema schema) {
        StructuralSchema itemSchema = schema.items().orElse(null);
        if (itemSchema == null) {
            return null;
        }
        ValueSizes items = of(itemSchema, itemSchema.embeddedResource());
        if (items == null) {
            return null;
        }
        Long maxItems = schema.maxItems();
        long max =
                maxItems != null ? zeroIfNegative(maxItems) : (MAX_REQUEST_BYTES - 2) / (items.minSerializedSize + 1);
        return new ValueSizes(max, 2, Map.of(), items, null);
    }

    private static ValueSizes object(StructuralSchema schema, boolean resourceRoot) {
        StructuralSchema valueSchema = schema.additionalProperties().orElse(null);
        if (valueSchema != null) {
            ValueSizes values = of(valueSchema, valueSchema.embeddedResource());
            if (values == null) {
                return null;
            }
            Long maxProperties = schema.maxProperties();
            long max = maxProperties != null
                    ? zeroIfNegative(maxProperties)
                    : (MAX_REQUEST_BYTES - 2) / (values.minSerializedSize + 6);
            return new ValueSizes(max, 2, Map.of(), values, MAP_KEY);
        }
        Map<String, StructuralSchema> properties = schema.properties();
        Map<String, ValueSizes> fields = new LinkedHashMap<>();
        Set<String> required = new HashSet<>(schema.required());
        long minSize = 2;
        Map<String, Object> declared = new LinkedHashMap<>(properties);
        if (resourceRoot && !hasTypeAndObjectMeta(properties)) {
            declared.put("kind", scalar(MAX_REQUEST_BYTES - 2, 2));
            declared.put("apiVersion", scalar(MAX_REQUEST_BYTES - 2, 2));
            StructuralSchema meta = properties.get("metadata");
            declared.put("metadata", metadata(meta));
        }
        for (Map.Entry<String, Object> e : declared.entrySet()) {
            String name = e.getKey();
            ValueSizes field;
            boolean defaulted;
            if (e.getValue() instanceof StructuralSchema s) {
                field = of(s, s.embeddedResource());
                defaulted = s.defaultValue().isPresent();
            } else {
                field = (ValueSizes) e.getValue();
                defaulted = false;
            }
            if (field == null) {
                continue;
            }
            FieldNames.escape(name).ifPresent(celName -> fields.put(celName, field));
            if (required.contains(name) && !defaulted) {
                minSize += name.getBytes(StandardCharsets.UTF_8).length + field.minSerializedSize + 4;
            }
        }
        return new ValueSizes(0, minSize, Map.copyOf(fields), null, null);
    }

    /** The metadata CEL sees at a resource root: name and generateName, their lengths capped. */
    private static ValueSizes metadata(StructuralSchema declared) {
        Map<String, StructuralSchema> props = declared == null ? Map.of() : declared.properties();
        return new ValueSizes(
                0,
                2,
                Map.of(
                        "name", cappedString(props.get("name"), NAME_MAX_LENGTH),
                        "generateName", cappedString(props.get("generateName"), NAME_MAX_LENGTH - 1)),
                null,
                null);
    }

    private static ValueSizes cappedString(StructuralSchema existing, long cap) {
        long maxLength = cap;
        if (existing != null && existing.maxLength() != null && existing.maxLength() < cap) {
            maxLength = existing.maxLength();
        }
        return scalar(zeroIfNegative(maxLength) * 4, 2);
    }

    private static boolean hasTypeAndObjectMeta(Map<String, StructuralSchema> properties) {
        StructuralSchema meta = properties.get("metadata");
        return isType(properties.get("kind"), "string")
                && isType(properties.get("apiVersion"), "string")
                && isType(meta, "object")
                && !meta.properties().isEmpty()
                && isType(meta.properties().get("name"), "string")
                && isType(meta.properties().get("generateName"), "string");
    }

    private static boolean isType(StructuralSchema s, String type) {
        return s != null && s.type().equals(type);
    }

    private static ValueSizes string(StructuralSchema schema) {
        Long maxLength = schema.maxLength();
        return switch (schema.format()) {
            case "byte" -> scalar(maxLength != null ? zeroIfNegative(maxLength) : MAX_REQUEST_BYTES - 2, 2);
            case "duration" -> scalar(32, 3);
            case "date" -> scalar(12, 12);
            case "date-time" -> scalar(32, 21);
            default -> {
                long max;
                if (maxLength != null) {
                    max = zeroIfNegative(maxLength) * 4;
                } else if (!schema.enumValues().isEmpty()) {
                    max = longestEnumValue(schema.enumValues());
                } else {
                    max = MAX_REQUEST_BYTES - 2;
                }
                yield scalar(max, 2);
            }
        };
    }

    private static long longestEnumValue(List<JsonNode> values) {
        long longest = 0;
        for (JsonNode v : values) {
            if (v.isString()) {
                longest = Math.max(longest, v.asString().getBytes(StandardCharsets.UTF_8).length);
            }
        }
        return longest;
    }

    private static long zeroIfNegative(long v) {
        return Math.max(0, v);
    }
}
