package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * JSON values as CEL sees them under a schema ({@link SchemaTypes} declares the matching types):
 * objects are maps of their present fields, by their {@linkplain FieldNames CEL names} (at the root and in embedded resources {@code metadata}
 * shows only {@code name} and {@code generateName}), arrays are lists, {@code integer} values are
 * {@code long}, {@code number} values {@code double}, strings of format {@code byte},
 * {@code duration} and {@code date-time} are bytes, {@link Duration}s and {@link Instant}s, JSON null is
 * CEL's null. Values without a schema are converted by their JSON type. Stateless.
 */
final class CelValues {

    private static final String DURATION_PART = "(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)";
    private static final Pattern GO_DURATION = Pattern.compile("[-+]?(?:" + DURATION_PART + ")+");
    private static final Pattern GO_DURATION_PART = Pattern.compile(DURATION_PART);

    private CelValues() {}

    /** The CEL value of {@code node} (present, not missing) under {@code schema} (null: by JSON type). */
    static Object of(JsonNode node, StructuralSchema schema, boolean root) {
        if (node.isNull()) {
            return NullValue.NULL_VALUE;
        }
        if (schema == null || schema.type().isEmpty()) {
            return untyped(node);
        }
        return switch (schema.type()) {
            case "object" -> object(node, schema, root || schema.embeddedResource());
            case "array" -> {
                List<Object> out = new ArrayList<>(node.size());
                StructuralSchema items = schema.items().orElse(null);
                node.forEach(i -> out.add(of(i, items, false)));
                yield out;
            }
            case "string" -> string(node, schema.format());
            case "integer" -> node.asLong();
            case "number" -> node.asDouble();
            default -> untyped(node);
        };
    }

    private static Object object(JsonNode node, StructuralSchema schema, boolean resource) {
        Map<String, Object> out = new LinkedHashMap<>();
        StructuralSchema values = schema.additionalProperties().orElse(null);
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = e.getKey();
            if (resource && key.equals("metadata")) {
                out.put(key, metadata(e.getValue()));
                continue;
            }
            if (values != null) {
                out.put(key, of(e.getValue(), values, false));
                continue;
            }
            StructuralSchema field = schema.properties().get(key);
            if (field != null) {
                FieldNames.escape(key).ifPresent(name -> out.put(name, of(e.getValue(), field, false)));
            } else if (resource && (key.equals("apiVersion") || key.equals("kind"))) {
                out.put(key, e.getValue().asString(""));
            } else if (schema.preserveUnknownFields() && schema.properties().isEmpty()) {
                out.put(key, untyped(e.getValue()));
            }
        }
        return out;
    }

    private static Map<String, Object> metadata(JsonNode metadata) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : List.of("name", "generateName")) {
            JsonNode v = metadata.get(key);
            if (v != null && v.isString()) {
                out.put(key, v.asString());
            }
        }
        return out;
    }

    private static Object string(JsonNode node, String format) {
        String s = node.asString();
        try {
            return switch (format) {
                case "byte" -> CelByteString.of(Base64.getDecoder().decode(s));
                case "duration" -> parseDuration(s).map(Object.class::cast).orElse(s);
                case "date-time" -> OffsetDateTime.parse(s).toInstant();
                default -> s;
            };
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return s;
        }
    }

    /** A Go duration ({@code 1h30m}, {@code 250ms}, {@code -2s}), as the duration format accepts. */
    static Optional<Duration> parseDuration(String s) {
        if (s.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        if (!GO_DURATION.matcher(s).matches()) {
            return Optional.empty();
        }
        Matcher part = GO_DURATION_PART.matcher(s);
        double nanos = 0;
        while (part.find()) {
            nanos += Double.parseDouble(part.group(1))
                    * switch (part.group(2)) {
                        case "ns" -> 1d;
                        case "us", "µs" -> 1e3;
                        case "ms" -> 1e6;
                        case "s" -> 1e9;
                        case "m" -> 60e9;
                        default -> 3600e9;
                    };
        }
        long total = Math.round(nanos);
        return Optional.of(Duration.ofNanos(s.startsWith("-") ? -total : total));
    }

    /** By JSON type: whole numbers are {@code long}, other numbers {@code double}. */
    static Object untyped(JsonNode node) {
        if (node == null || node.isNull()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            node.properties().forEach(e -> out.put(e.getKey(), untyped(e.getValue())));
            return out;
        }
        if (node.isArray()) {
            List<Object> out = new ArrayList<>(node.size());
            node.forEach(i -> out.add(untyped(i)));
            return out;
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        return node.asString();
    }
}
