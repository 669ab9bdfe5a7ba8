package io.kubeloop.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        ObjectNode copy = (ObjectNode) schema.deepCopy();
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
}
