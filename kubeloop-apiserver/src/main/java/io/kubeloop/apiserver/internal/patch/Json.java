package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON helpers shared by the patch implementations: parsing, Go-like type categories and equality,
 * canonical (key-sorted) JSON text and Go's {@code %v} rendering for error messages.
 */
final class Json {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Go's dynamic type of a decoded JSON value (int64 and float64 differ, as in apimachinery). */
    enum Category {
        OBJECT,
        ARRAY,
        STRING,
        INT,
        FLOAT,
        BOOL,
        NULL
    }

    private Json() {}

    /**
     * Parses JSON text; a syntax error or nesting deeper than {@link RequestJson#MAX_DEPTH} becomes a 400 with the
     * parser's one-line message.
     */
    static JsonNode parse(String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Parses JSON bytes; a syntax error or nesting deeper than {@link RequestJson#MAX_DEPTH} becomes a 400 with the
     * parser's one-line message.
     */
    static JsonNode parse(byte[] bytes) {
        String tooDeep = RequestJson.depthError(bytes);
        if (tooDeep != null) {
            throw PatchException.badRequest(tooDeep);
        }
        try {
            return RequestJson.read(bytes);
        } catch (JacksonException e) {
            throw PatchException.badRequest(e.getOriginalMessage());
        }
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /** A deep copy; {@code null} stays {@code null}. */
    static JsonNode copy(JsonNode node) {
        return node == null ? null : node.deepCopy();
    }

    static boolean isNull(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode();
    }

    static Category category(JsonNode node) {
        if (isNull(node)) {
            return Category.NULL;
        }
        if (node.isObject()) {
            return Category.OBJECT;
        }
        if (node.isArray()) {
            return Category.ARRAY;
        }
        if (node.isString()) {
            return Category.STRING;
        }
        if (node.isIntegralNumber()) {
            return Category.INT;
        }
        if (node.isNumber()) {
            return Category.FLOAT;
        }
        if (node.isBoolean()) {
            return Category.BOOL;
        }
        return Category.STRING;
    }

    /** Go's {@code ==} on decoded values: same category and same value (structures compared deeply). */
    static boolean goEquals(JsonNode a, JsonNode b) {
        Category ca = category(a);
        if (ca != category(b)) {
            return false;
        }
        return switch (ca) {
            case NULL -> true;
            case INT -> a.bigIntegerValue().equals(b.bigIntegerValue());
            case FLOAT -> a.doubleValue() == b.doubleValue();
            case STRING -> a.asString().equals(b.asString());
            case BOOL -> a.booleanValue() == b.booleanValue();
            case OBJECT, ARRAY -> deepEquals(a, b);
        };
    }

    /**
     * Deep equality where numbers compare by value within their category and object key order is ignored:
     * exactly when the {@link #canonical} texts are equal, without building them.
     */
    static boolean deepEquals(JsonNode a, JsonNode b) {
        if (a == b) {
            return true;
        }
        Category ca = category(a);
        Category cb = category(b);
        if (ca != cb) {
            // an integer and a float never print alike, except in forms only their text shows
            return (ca == Category.INT || ca == Category.FLOAT)
                    && (cb == Category.INT || cb == Category.FLOAT)
                    && canonical(a).equals(canonical(b));
        }
        return switch (ca) {
            case NULL -> true;
            case OBJECT -> {
                if (a.size() != b.size()) {
                    yield false;
                }
                for (Map.Entry<String, JsonNode> e : a.properties()) {
                    JsonNode other = b.get(e.getKey());
                    if (other == null || !deepEquals(e.getValue(), other)) {
                        yield false;
                    }
                }
                yield true;
            }
            case ARRAY -> {
                if (a.size() != b.size()) {
                    yield false;
                }
                for (int i = 0; i < a.size(); i++) {
                    if (!deepEquals(a.get(i), b.get(i))) {
                        yield false;
                    }
                }
                yield true;
            }
            case INT -> a.bigIntegerValue().equals(b.bigIntegerValue());
            case FLOAT -> canonical(a).equals(canonical(b));
            case STRING -> a.asString().equals(b.asString());
            case BOOL -> a.booleanValue() == b.booleanValue();
        };
    }

    /** Compact JSON with object keys sorted; equal values give equal text. */
    static String canonical(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        writeCanonical(node, sb);
        return sb.toString();
    }

    private static void writeCanonical(JsonNode node, StringBuilder sb) {
        switch (category(node)) {
            case NULL -> sb.append("null");
            case OBJECT -> {
                List<String> keys = new ArrayList<>(node.propertyNames());
                Collections.sort(keys);
                sb.append('{');
                for (int i = 0; i < keys.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(quote(keys.get(i))).append(':');
                    writeCanonical(node.get(keys.get(i)), sb);
                }
                sb.append('}');
            }
            case ARRAY -> {
                sb.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    writeCanonical(node.get(i), sb);
                }
                sb.append(']');
            }
            case INT -> sb.append(node.bigIntegerValue());
            case FLOAT -> sb.append(KubeJson.mapper().writeValueAsString(node));
            case STRING -> sb.append(quote(node.asString()));
            case BOOL -> sb.append(node.booleanValue());
        }
    }

    static String quote(String s) {
        return KubeJson.mapper().writeValueAsString(NODES.stringNode(s));
    }

    /** Go's {@code fmt} {@code %v} of a decoded value, as apimachinery's error messages show it. */
    static String goString(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        writeGo(node, sb);
        return sb.toString();
    }

    private static void writeGo(JsonNode node, StringBuilder sb) {
        switch (category(node)) {
            case NULL -> sb.append("<nil>");
            case OBJECT -> {
                List<String> keys = new ArrayList<>(node.propertyNames());
                Collections.sort(keys);
                sb.append("map[");
                for (int i = 0; i < keys.size(); i++) {
                    if (i > 0) {
                        sb.append(' ');
                    }
                    sb.append(keys.get(i)).append(':');
                    writeGo(node.get(keys.get(i)), sb);
                }
                sb.append(']');
            }
            case ARRAY -> {
                sb.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        sb.append(' ');
                    }
                    writeGo(node.get(i), sb);
                }
                sb.append(']');
            }
            case STRING -> sb.append(node.asString());
            default -> sb.append(node.asString());
        }
    }

    /** Go's {@code reflect.TypeOf} name of a decoded value, for apimachinery's "expected a X" messages. */
    static String goTypeName(JsonNode node) {
        return switch (category(node)) {
            case NULL -> "<nil>";
            case OBJECT -> "map[string]interface {}";
            case ARRAY -> "[]interface {}";
            case STRING -> "string";
            case INT -> "int64";
            case FLOAT -> "float64";
            case BOOL -> "bool";
        };
    }

    /** Object entries as a list, so callers may modify the object while iterating. */
    static List<Map.Entry<String, JsonNode>> entries(JsonNode object) {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            out.add(Map.entry(e.getKey(), e.getValue()));
        }
        return out;
    }
}
