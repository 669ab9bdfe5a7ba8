package codegencompare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** JSON tree comparison and the normalisation of CRD schemas before they are compared. */
final class Trees {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Schema keywords whose value maps names to schemas. */
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "definitions");

    /** Schema keywords whose value is a list of schemas ({@code items} may also be one schema). */
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "items");

    /** Schema keywords whose value is one schema (or, for additionalProperties, a boolean). */
    private static final Set<String> SCHEMAS = Set.of("not", "additionalProperties", "items");

    private Trees() {}

    /**
     * A copy of a root {@code openAPIV3Schema} without the root's apiVersion, kind and metadata
     * properties, with every {@code required} list sorted and, if asked, every {@code description}
     * dropped and, if asked, every {@code enum} list sorted. Only keyword positions are touched: a
     * property named "description" stays, and so do values under {@code default}, {@code example} and
     * the like.
     */
    static JsonNode normalizeSchema(JsonNode root, boolean dropDescriptions, boolean sortEnums) {
        JsonNode copy = normalize(root, dropDescriptions, sortEnums);
        if (copy.get("properties") instanceof ObjectNode properties) {
            properties.remove(List.of("apiVersion", "kind", "metadata"));
        }
        return copy;
    }

    private static JsonNode normalize(JsonNode schema, boolean dropDescriptions, boolean sortEnums) {
        if (!schema.isObject()) {
            return schema.deepCopy();
        }
        ObjectNode out = JSON.createObjectNode();
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            String keyword = e.getKey();
            JsonNode value = e.getValue();
            if (keyword.equals("description") && dropDescriptions) {
                continue;
            }
            if ((keyword.equals("required") || (keyword.equals("enum") && sortEnums)) && value.isArray()) {
                List<JsonNode> items = new ArrayList<>();
                value.forEach(items::add);
                items.sort(Comparator.comparing(JsonNode::toString));
                out.putArray(keyword).addAll(items);
            } else if (SCHEMA_MAPS.contains(keyword) && value.isObject()) {
                ObjectNode map = out.putObject(keyword);
                value.properties().forEach(p -> map.set(p.getKey(), normalize(p.getValue(), dropDescriptions, sortEnums)));
            } else if (SCHEMA_LISTS.contains(keyword) && value.isArray()) {
                ArrayNode list = out.putArray(keyword);
                value.forEach(s -> list.add(normalize(s, dropDescriptions, sortEnums)));
            } else if (SCHEMAS.contains(keyword)) {
                out.set(keyword, normalize(value, dropDescriptions, sortEnums));
            } else {
                out.set(keyword, value.deepCopy());
            }
        }
        return out;
    }

    /** Adds to {@code counts} how many schema nodes under (and including) {@code schema} use each keyword. */
    static void countKeywords(JsonNode schema, Map<String, Integer> counts) {
        if (!schema.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            String keyword = e.getKey();
            JsonNode value = e.getValue();
            counts.merge(keyword, 1, Integer::sum);
            if (SCHEMA_MAPS.contains(keyword) && value.isObject()) {
                value.forEach(s -> countKeywords(s, counts));
            } else if (SCHEMA_LISTS.contains(keyword) && value.isArray()) {
                value.forEach(s -> countKeywords(s, counts));
            } else if (SCHEMAS.contains(keyword)) {
                countKeywords(value, counts);
            }
        }
    }

    /** Every {@code description} text in a schema, in schema positions only. */
    static void descriptions(JsonNode schema, List<String> out) {
        if (!schema.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            String keyword = e.getKey();
            JsonNode value = e.getValue();
            if (keyword.equals("description") && value.isTextual()) {
                out.add(value.asText());
            } else if ((SCHEMA_MAPS.contains(keyword) && value.isObject())
                    || (SCHEMA_LISTS.contains(keyword) && value.isArray())) {
                value.forEach(s -> descriptions(s, out));
            } else if (SCHEMAS.contains(keyword)) {
                descriptions(value, out);
            }
        }
    }

    /**
     * The paths (JSON pointers) where two trees differ, each with both values, at most {@code limit}
     * of them. Numbers are compared by value (2 == 2.0), object keys in any order; a key missing on
     * one side is one difference, however large the value on the other side.
     */
    static List<String> differences(JsonNode original, JsonNode other, int limit, String otherName) {
        List<String> out = new ArrayList<>();
        diff(original, other, "", out, limit, otherName);
        return out;
    }

    private static void diff(JsonNode a, JsonNode b, String path, List<String> out, int limit, String bName) {
        if (out.size() >= limit) {
            return;
        }
        if (a != null && b != null && a.isNumber() && b.isNumber()) {
            if (a.decimalValue().compareTo(b.decimalValue()) != 0) {
                out.add(difference(path, a, b, bName));
            }
        } else if (a != null && b != null && a.isObject() && b.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                diff(a.get(name), b.get(name), path + "/" + name.replace("~", "~0").replace("/", "~1"), out, limit, bName);
            }
        } else if (a != null && b != null && a.isArray() && b.isArray()) {
            for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                diff(a.get(i), b.get(i), path + "/" + i, out, limit, bName);
            }
        } else if (a == null || !a.equals(b)) {
            out.add(difference(path, a, b, bName));
        }
    }

    private static String difference(String path, JsonNode a, JsonNode b, String bName) {
        return "`" + (path.isEmpty() ? "/" : path) + "`: original " + show(a) + ", " + bName + " " + show(b);
    }

    private static String show(JsonNode node) {
        if (node == null) {
            return "absent";
        }
        String text = node.toString().replace("`", "'").replace("|", "\\|");
        return "`" + (text.length() > 60 ? text.substring(0, 57) + "…" : text) + "`";
    }
}
