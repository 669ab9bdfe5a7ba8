package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.kubeloop.api.json.KubeJson;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An object of any kind, held as a JSON tree: client-go's {@code unstructured.Unstructured}.
 *
 * <p>A {@code DynamicObject} is immutable by contract: {@link #node()} exposes the tree for reading,
 * and changes go through {@link #edit}, which works on a copy. Thread-safe under that contract.
 *
 * <p>Jackson reads and writes a {@code DynamicObject} as its JSON object, with any mapper, so it can
 * be a field, a list item or a top-level value of a typed class ({@code List<DynamicObject> items}).
 */
public final class DynamicObject implements KubernetesObject {

    private final ObjectNode node;
    /** Parsed lazily from {@link #node}; racy single-check is fine because the node never changes. */
    private ObjectMeta metadata;

    private DynamicObject(ObjectNode node) {
        this.node = Objects.requireNonNull(node, "node");
    }

    /**
     * Wraps a JSON object tree. The tree is taken over, not copied: do not change it afterwards.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static DynamicObject wrap(ObjectNode node) {
        return new DynamicObject(node);
    }

    /** Parses JSON text of one object. */
    public static DynamicObject parse(String json) {
        JsonNode tree = KubeJson.mapper().readTree(json);
        if (!(tree instanceof ObjectNode object)) {
            throw new IllegalArgumentException("expected a JSON object, got " + tree.getNodeType());
        }
        return new DynamicObject(object);
    }

    /** A new object with the given apiVersion, kind and metadata and nothing else. */
    public static DynamicObject of(String apiVersion, String kind, ObjectMeta metadata) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("apiVersion", apiVersion);
        n.put("kind", kind);
        n.set("metadata", KubeJson.mapper().valueToTree(metadata));
        return new DynamicObject(n);
    }

    @Override
    public String apiVersion() {
        return text("apiVersion");
    }

    @Override
    public String kind() {
        return text("kind");
    }

    @Override
    public ObjectMeta metadata() {
        ObjectMeta m = metadata;
        if (m == null) {
            JsonNode meta = node.get("metadata");
            m = meta == null || meta.isNull()
                    ? ObjectMeta.builder().build()
                    : KubeJson.mapper().treeToValue(meta, ObjectMeta.class);
            metadata = m;
        }
        return m;
    }

    /** The JSON tree; read-only by contract. */
    @JsonValue
    public ObjectNode node() {
        return node;
    }

    /**
     * The value at a JSON Pointer ({@code /spec/replicas}), if present and not null.
     */
    public Optional<JsonNode> at(String jsonPointer) {
        JsonNode value = node.at(jsonPointer);
        return value.isMissingNode() || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    /** Returns a changed copy: {@code editor} gets a deep copy of the tree to change. */
    public DynamicObject edit(Consumer<ObjectNode> editor) {
        ObjectNode copy = node.deepCopy();
        editor.accept(copy);
        return new DynamicObject(copy);
    }

    /** Returns a copy whose metadata is replaced. */
    public DynamicObject withMetadata(ObjectMeta newMetadata) {
        return edit(n -> n.set("metadata", KubeJson.mapper().valueToTree(newMetadata)));
    }

    /** Converts to a typed object with Jackson. */
    public <T> T to(Class<T> type) {
        return KubeJson.mapper().treeToValue(node, type);
    }

    /** Compact JSON text. */
    public String toJson() {
        return KubeJson.mapper().writeValueAsString(node);
    }

    private String text(String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DynamicObject other && node.equals(other.node);
    }

    @Override
    public int hashCode() {
        return node.hashCode();
    }

    @Override
    public String toString() {
        ObjectMeta m = metadata();
        return "DynamicObject[" + kind() + " " + (m.namespace() == null ? "" : m.namespace() + "/") + m.name() + "]";
    }
}
