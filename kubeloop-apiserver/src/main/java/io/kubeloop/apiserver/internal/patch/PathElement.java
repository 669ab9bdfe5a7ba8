package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One step of a {@link FieldPath}, as structured-merge-diff defines it: a struct or map member
 * ({@code f:name}), an item of an associative list by its key fields ({@code k:{"name":"web"}}), a value
 * of a set ({@code v:"a"}) or a list position ({@code i:3}, used only where nothing better exists).
 *
 * <p>Key and value elements keep their JSON in canonical form (compact, object keys sorted), so equal
 * values give equal elements. Elements are ordered as structured-merge-diff orders them: fields, then
 * keys, then values, then indices; numbers before strings before booleans before lists before objects
 * before null.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface PathElement extends Comparable<PathElement> {

    /** The element's key in the FieldsV1 JSON form ({@code f:…}, {@code k:…}, {@code v:…}, {@code i:…}). */
    String fieldsV1Key();

    /**
     * Parses a FieldsV1 key.
     *
     * @throws IllegalArgumentException for a key without a known prefix or with bad JSON
     */
    static PathElement parseFieldsV1Key(String key) {
        if (key.length() < 2 || key.charAt(1) != ':') {
            throw new IllegalArgumentException("not a FieldsV1 path element: " + key);
        }
        String rest = key.substring(2);
        return switch (key.charAt(0)) {
            case 'f' -> new Field(rest);
            case 'k' -> {
                JsonNode node = parseJson(key, rest);
                if (!node.isObject()) {
                    throw new IllegalArgumentException("not a FieldsV1 key element: " + key);
                }
                yield new Key(Json.canonical(node));
            }
            case 'v' -> new Value(Json.canonical(parseJson(key, rest)));
            case 'i' -> {
                try {
                    yield new Index(Integer.parseInt(rest));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a FieldsV1 index element: " + key, e);
                }
            }
            default -> throw new IllegalArgumentException("not a FieldsV1 path element: " + key);
        };
    }

    private static JsonNode parseJson(String key, String json) {
        try {
            return Json.parse(json);
        } catch (PatchException e) {
            throw new IllegalArgumentException("bad JSON in FieldsV1 path element: " + key, e);
        }
    }

    /** A key element from an associative list item's key fields. */
    static Key key(Map<String, JsonNode> fields) {
        ObjectNode object = Json.object();
        fields.forEach(object::set);
        return new Key(Json.canonical(object));
    }

    /** A set-member element for a scalar. */
    static Value value(JsonNode value) {
        return new Value(Json.canonical(value));
    }

    @Override
    default int compareTo(PathElement other) {
        int rank = Integer.compare(rank(this), rank(other));
        if (rank != 0) {
            return rank;
        }
        return switch (this) {
            case Field f -> f.name().compareTo(((Field) other).name());
            case Key k -> compareKeys(k.fields(), ((Key) other).fields());
            case Value v -> compareValues(v.node(), ((Value) other).node());
            case Index i -> Integer.compare(i.index(), ((Index) other).index());
        };
    }

    private static int rank(PathElement e) {
        return switch (e) {
            case Field f -> 0;
            case Key k -> 1;
            case Value v -> 2;
            case Index i -> 3;
        };
    }

    private static int compareKeys(JsonNode a, JsonNode b) {
        if (a.size() != b.size()) {
            return Integer.compare(a.size(), b.size());
        }
        List<String> an = sortedNames(a);
        List<String> bn = sortedNames(b);
        for (int i = 0; i < an.size(); i++) {
            int c = an.get(i).compareTo(bn.get(i));
            if (c != 0) {
                return c;
            }
            c = compareValues(a.get(an.get(i)), b.get(bn.get(i)));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static List<String> sortedNames(JsonNode node) {
        List<String> names = new ArrayList<>(node.propertyNames());
        Collections.sort(names);
        return names;
    }

    private static int typeRank(JsonNode v) {
        return switch (Json.category(v)) {
            case INT, FLOAT -> 0;
            case STRING -> 1;
            case BOOL -> 2;
            case ARRAY -> 3;
            case OBJECT -> 4;
            case NULL -> 5;
        };
    }

    /** structured-merge-diff's total order on values. */
    private static int compareValues(JsonNode a, JsonNode b) {
        int rank = Integer.compare(typeRank(a), typeRank(b));
        if (rank != 0) {
            return rank;
        }
        return switch (Json.category(a)) {
            case INT, FLOAT -> a.decimalValue().compareTo(b.decimalValue());
            case STRING -> a.asString().compareTo(b.asString());
            case BOOL -> Boolean.compare(a.booleanValue(), b.booleanValue());
            case ARRAY -> {
                for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                    int c = compareValues(a.get(i), b.get(i));
                    if (c != 0) {
                        yield c;
                    }
                }
                yield Integer.compare(a.size(), b.size());
            }
            case OBJECT -> Json.canonical(a).compareTo(Json.canonical(b));
            case NULL -> 0;
        };
    }

    /** Renders a value as structured-merge-diff's {@code value.ToString} does. */
    private static String render(JsonNode v) {
        return switch (Json.category(v)) {
            case ARRAY -> {
                List<String> items = new ArrayList<>();
                v.forEach(item -> items.add(render(item)));
                yield "[" + String.join(",", items) + "]";
            }
            case OBJECT -> {
                List<String> items = new ArrayList<>();
                for (String name : sortedNames(v)) {
                    items.add(name + "=" + render(v.get(name)));
                }
                yield "{" + String.join(",", items) + "}";
            }
            default -> Json.canonical(v);
        };
    }

    /**
     * A struct field or map entry.
     *
     * @param name the member name
     */
    record Field(String name) implements PathElement {
        public Field {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String fieldsV1Key() {
            return "f:" + name;
        }

        @Override
        public String toString() {
            return "." + name;
        }
    }

    /**
     * An associative-list item by its key fields.
     *
     * @param json the key fields as canonical JSON ({@code {"containerPort":80,"protocol":"TCP"}})
     */
    record Key(String json) implements PathElement {
        public Key {
            Objects.requireNonNull(json, "json");
        }

        /** The key fields as a JSON object. */
        public JsonNode fields() {
            return Json.parse(json);
        }

        @Override
        public String fieldsV1Key() {
            return "k:" + json;
        }

        @Override
        public String toString() {
            JsonNode fields = fields();
            List<String> parts = new ArrayList<>();
            for (String name : sortedNames(fields)) {
                parts.add(name + "=" + render(fields.get(name)));
            }
            return "[" + String.join(",", parts) + "]";
        }
    }

    /**
     * A member of a set of scalars.
     *
     * @param json the value as canonical JSON
     */
    record Value(String json) implements PathElement {
        public Value {
            Objects.requireNonNull(json, "json");
        }

        /** The value as JSON. */
        public JsonNode node() {
            return Json.parse(json);
        }

        @Override
        public String fieldsV1Key() {
            return "v:" + json;
        }

        @Override
        public String toString() {
            return "[=" + render(node()) + "]";
        }
    }

    /**
     * A list position.
     *
     * @param index the position
     */
    record Index(int index) implements PathElement {
        @Override
        public String fieldsV1Key() {
            return "i:" + index;
        }

        @Override
        public String toString() {
            return "[" + index + "]";
        }
    }
}
