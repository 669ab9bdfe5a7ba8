package io.kubeloop.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** JSON comparison as the checks need it: numbers by value, schemas without descriptions. */
final class Json {

    private Json() {}

    /**
     * {@code node} with every number as a decimal of its value ({@code 2} and {@code 2.0} alike),
     * for comparing JSON values rather than spellings.
     */
    static JsonNode numbersByValue(JsonNode node) {
        if (node.isNumber()) {
            return JsonNodeFactory.instance.numberNode(node.decimalValue().stripTrailingZeros());
        }
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                out.set(e.getKey(), numbersByValue(e.getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (JsonNode item : node) {
                out.add(numbersByValue(item));
            }
            return out;
        }
        return node;
    }

    /**
     * A schema normalised for comparison: no {@code description}s, {@code required} sorted, the
     * root's {@code apiVersion}, {@code kind} and {@code metadata} properties dropped (every kind
     * has them), numbers by value.
     */
    static JsonNode normalSchema(JsonNode schema) {
        JsonNode copy = schema.deepCopy();
        JsonNode properties = copy.path("properties");
        if (properties instanceof ObjectNode p) {
            p.remove(List.of("apiVersion", "kind", "metadata"));
        }
        return numbersByValue(normal(copy));
    }

    private static JsonNode normal(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (e.getKey().equals("description") && e.getValue().isString()) {
                    continue;
                }
                if (e.getKey().equals("required") && e.getValue().isArray()) {
                    List<String> names = new ArrayList<>();
                    e.getValue().forEach(n -> names.add(n.asString()));
                    names.sort(null);
                    ArrayNode sorted = out.putArray("required");
                    names.forEach(sorted::add);
                    continue;
                }
                out.set(e.getKey(), normal(e.getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(item -> out.add(normal(item)));
            return out;
        }
        return node;
    }

    /** The JSON pointers where {@code a} and {@code b} differ (at most 10), for failure messages. */
    static List<String> differences(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        diff("", a, b, out);
        return out;
    }

    private static void diff(String at, JsonNode a, JsonNode b, List<String> out) {
        if (out.size() >= 10 || a.equals(b)) {
            return;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> names = new TreeSet<>(a.propertyNames());
            names.addAll(b.propertyNames());
            for (String name : names) {
                diff(at + "/" + name, a.path(name), b.path(name), out);
            }
            return;
        }
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                diff(at + "/" + i, a.get(i), b.get(i), out);
            }
            return;
        }
        out.add(at + ": " + abbreviate(a) + " vs " + abbreviate(b));
    }

    private static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }
}
