package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes one Java type as Kubernetes JSON: {@link DynamicObject} through its tree, any
 * other type with Jackson. Also decodes lists, filling in {@code kind}/{@code apiVersion} of
 * items that lack them (built-in lists send bare items) from the list's kind minus {@code List}
 * and its apiVersion, as client-go's unstructured list does. Immutable and thread-safe.
 */
final class ObjectCodec<T> {

    /**
     * {@link io.kubeloop.api.json.KubeJson#mapper()} without the trailing-token check, so values can
     * be read from the middle of a stream (list items, watch events) without reading ahead.
     * Immutable.
     */
    static final JsonMapper STREAMING = io.kubeloop.api.json.KubeJson.mapper().rebuild()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private final Class<T> type;
    private final JsonMapper mapper;

    ObjectCodec(Class<T> type) {
        this.type = java.util.Objects.requireNonNull(type, "type");
        this.mapper = STREAMING;
    }

    JsonMapper mapper() {
        return mapper;
    }

    /** Reads the value at the parser's current token. */
    T read(JsonParser parser) {
        if (type == DynamicObject.class) {
            return type.cast(DynamicObject.wrap(asObject(mapper.readTree(parser))));
        }
        return mapper.readValue(parser, type);
    }

    T read(byte[] json) {
        try (JsonParser parser = mapper.createParser(json)) {
            parser.nextToken();
            return read(parser);
        }
    }

    T fromTree(ObjectNode node) {
        return type == DynamicObject.class ? type.cast(DynamicObject.wrap(node)) : mapper.treeToValue(node, type);
    }

    /** The object as a JSON tree (for a DynamicObject: its own tree, not to be changed). */
    ObjectNode toTree(T object) {
        if (object instanceof DynamicObject d) {
            return d.node();
        }
        return asObject(mapper.valueToTree(object));
    }

    byte[] write(ObjectNode tree) {
        return mapper.writeValueAsBytes(tree);
    }

    /** Decodes a list body with the streaming parser: metadata, then items. */
    ObjectList<T> readList(byte[] json) {
        String kind = null;
        String apiVersion = null;
        String resourceVersion = null;
        String continueToken = null;
        Long remaining = null;
        List<ObjectNode> items = new ArrayList<>();
        try (JsonParser p = mapper.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a list reply must be a JSON object");
            }
            String field;
            while ((field = p.nextName()) != null) {
                JsonToken t = p.nextToken();
                switch (field) {
                    case "kind" -> kind = p.getValueAsString();
                    case "apiVersion" -> apiVersion = p.getValueAsString();
                    case "metadata" -> {
                        JsonNode meta = mapper.readTree(p);
                        resourceVersion = text(meta, "resourceVersion");
                        continueToken = text(meta, "continue");
                        JsonNode r = meta.path("remainingItemCount");
                        remaining = r.isNumber() ? r.asLong() : null;
                    }
                    case "items" -> {
                        if (t == JsonToken.START_ARRAY) {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                items.add(asObject(mapper.readTree(p)));
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        String itemKind = kind != null && kind.endsWith("List") && kind.length() > 4
                ? kind.substring(0, kind.length() - 4) : null;
        List<T> out = new ArrayList<>(items.size());
        for (ObjectNode item : items) {
            if (itemKind != null && item.path("kind").asString("").isEmpty()) {
                item.put("kind", itemKind);
            }
            if (apiVersion != null && item.path("apiVersion").asString("").isEmpty()) {
                item.put("apiVersion", apiVersion);
            }
            out.add(fromTree(item));
        }
        return new ObjectList<>(out, resourceVersion, continueToken, remaining);
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isString() ? v.asString() : null;
    }

    private static ObjectNode asObject(JsonNode node) {
        if (node instanceof ObjectNode o) {
            return o;
        }
        throw new IllegalArgumentException("expected a JSON object, got " + node.getNodeType());
    }
}
