package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.node.ObjectNode;

/**
 * An object of any kind: client-go's {@code unstructured.Unstructured}.
 *
 * <p><b>Two forms, one behaviour.</b> A {@code DynamicObject} is held either
 * <ul>
 *   <li>as a <em>tree</em> ({@link #wrap}, {@link #parse}, {@link #of}, {@link #edit}, and objects Jackson
 *       builds when a {@code DynamicObject} is a field of another type): the {@link ObjectNode} is kept and
 *       {@link #node()} returns it; or</li>
 *   <li><em>compact</em> ({@link #fromJson}, {@link #compact()}, and every object a kubeloop client decodes
 *       from a get, list or watch reply, hence everything in an informer's cache): the object's exact UTF-8
 *       JSON bytes plus its apiVersion, kind, namespace, name, resourceVersion and uid, read once when it
 *       was decoded. Everything else is parsed from the bytes when asked for: {@link #metadata()},
 *       {@link #node()}, {@link #at}, {@link #to}. A compact Pod of 4 KB of JSON costs about 4.5 KB of
 *       heap where its tree costs about 26 KB; the price is a parse per deep read.</li>
 * </ul>
 * Both forms answer every method the same way, and {@link #equals} compares JSON values across forms
 * (field order does not matter, as for {@link ObjectNode#equals}).
 *
 * <p><b>Immutable by contract.</b> Changes go through {@link #edit}, which works on a copy. The tree of a
 * tree-form object must not be changed after {@link #wrap}; {@link #node()} of a tree-form object is that
 * tree, read-only by contract. {@link #node()} of a compact object is a fresh tree on every call, detached
 * from the object: changing it changes nothing (and costs a parse — keep the tree if you read it often).
 * Objects from a cache are shared with other readers, so do not change them in either form (client-go's
 * rule); the compact form simply cannot be changed.
 *
 * <p><b>Thread safety.</b> Compact objects are deeply immutable. Tree-form objects are safe to share under
 * the contract above (their {@link ObjectMeta} is computed lazily with a benign race).
 *
 * <p>Jackson reads a {@code DynamicObject} as its JSON object (tree form) and writes it as that object,
 * with any mapper, so it can be a field, a list item or a top-level value of a typed class
 * ({@code List<DynamicObject> items}).
 */
@JsonSerialize(using = DynamicObjectSerializer.class)
public final class DynamicObject implements KubernetesObject {

    /** The tree of a tree-form object; null exactly when {@link #json} is not. */
    private final ObjectNode node;
    /** The exact UTF-8 JSON text of a compact object, never changed nor exposed; null for tree form. */
    private final byte[] json;
    /** Compact form only (null in tree form): the top-level/metadata fields read when decoding. */
    private final String apiVersion;

    private final String kind;
    private final String namespace;
    private final String name;
    private final String resourceVersion;
    private final String uid;
    /** Tree form only: parsed lazily from {@link #node}; racy single-check is fine, the node never changes. */
    private ObjectMeta metadata;

    private DynamicObject(ObjectNode node) {
        this.node = Objects.requireNonNull(node, "node");
        this.json = null;
        this.apiVersion = null;
        this.kind = null;
        this.namespace = null;
        this.name = null;
        this.resourceVersion = null;
        this.uid = null;
    }

    /** A compact object; the caller hands over {@code json} (the exact bytes of one JSON object). */
    DynamicObject(
            byte[] json,
            String apiVersion,
            String kind,
            String namespace,
            String name,
            String resourceVersion,
            String uid) {
        this.node = null;
        this.json = json;
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.namespace = namespace;
        this.name = name;
        this.resourceVersion = resourceVersion;
        this.uid = uid;
    }

    /**
     * Wraps a JSON object tree (tree form). The tree is taken over, not copied: do not change it afterwards.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static DynamicObject wrap(ObjectNode node) {
        return new DynamicObject(node);
    }

    /** Parses JSON text of one object into the tree form. */
    public static DynamicObject parse(String json) {
        JsonNode tree = KubeJson.mapper().readTree(json);
        if (!(tree instanceof ObjectNode object)) {
            throw new IllegalArgumentException("expected a JSON object, got " + tree.getNodeType());
        }
        return new DynamicObject(object);
    }

    /**
     * A compact object holding exactly these bytes (one JSON object, UTF-8, nothing after it but whitespace).
     * The array is taken over, not copied: do not change it afterwards.
     *
     * @throws IllegalArgumentException when {@code json} is not one well-formed JSON object
     */
    public static DynamicObject fromJson(byte[] json) {
        Objects.requireNonNull(json, "json");
        try (JsonParser p = KubeJson.mapper().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("expected a JSON object");
            }
            DynamicObject d = new DynamicObjectReader().read(p, json, 0);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("trailing content after the JSON object");
            }
            return d.json.length == json.length
                    ? new DynamicObject(json, d.apiVersion, d.kind, d.namespace, d.name, d.resourceVersion, d.uid)
                    : d;
        } catch (JacksonException e) {
            throw new IllegalArgumentException("malformed JSON object: " + e.getOriginalMessage(), e);
        }
    }

    /** A new object with the given apiVersion, kind and metadata and nothing else (tree form). */
    public static DynamicObject of(String apiVersion, String kind, ObjectMeta metadata) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("apiVersion", apiVersion);
        n.put("kind", kind);
        n.set("metadata", KubeJson.mapper().valueToTree(metadata));
        return new DynamicObject(n);
    }

    /** True for the compact form (bytes), false for the tree form. */
    public boolean isCompact() {
        return json != null;
    }

    /** This object in the compact form: itself when compact, else its tree written as JSON. */
    public DynamicObject compact() {
        return json != null ? this : fromJson(KubeJson.mapper().writeValueAsBytes(node));
    }

    @Override
    public String apiVersion() {
        return json != null ? apiVersion : text(node, "apiVersion");
    }

    @Override
    public String kind() {
        return json != null ? kind : text(node, "kind");
    }

    /**
     * The object's metadata. Tree form: parsed once and kept. Compact form: parsed from the bytes on every
     * call (nothing is kept, so a cache stays small) — prefer {@link ObjectAccess}'s single-field readers
     * ({@link ObjectAccess#name}, {@link ObjectAccess#namespace}, {@link ObjectAccess#key}…) on hot paths.
     */
    @Override
    public ObjectMeta metadata() {
        if (json != null) {
            return DynamicObjectReader.readMetadata(json);
        }
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

    @Override
    public ObjectKey key() {
        return ObjectKey.of(metaNamespace(), metaName());
    }

    /**
     * The JSON tree. Tree form: the object's own tree, read-only by contract. Compact form: a new tree parsed
     * from the bytes on every call, detached from this object.
     */
    public ObjectNode node() {
        if (json == null) {
            return node;
        }
        return (ObjectNode) KubeJson.mapper().readTree(json);
    }

    /**
     * The value at a JSON Pointer ({@code /spec/replicas}), if present and not null. For a compact object
     * the value is detached (see {@link #node()}).
     */
    public Optional<JsonNode> at(String jsonPointer) {
        JsonNode value = node().at(jsonPointer);
        return value.isMissingNode() || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    /** Returns a changed copy in tree form: {@code editor} gets a private copy of the tree to change. */
    public DynamicObject edit(Consumer<ObjectNode> editor) {
        ObjectNode copy = json != null ? node() : node.deepCopy();
        editor.accept(copy);
        return new DynamicObject(copy);
    }

    /** Returns a copy whose metadata is replaced. */
    public DynamicObject withMetadata(ObjectMeta newMetadata) {
        return edit(n -> n.set("metadata", KubeJson.mapper().valueToTree(newMetadata)));
    }

    /**
     * This object without {@code metadata.managedFields}: itself when it has none. A compact object
     * stays compact, its other bytes unchanged (the member is cut out of the JSON, nothing is parsed
     * into a tree); a tree-form one gets a changed copy.
     */
    public DynamicObject withoutManagedFields() {
        if (json == null) {
            return node.get("metadata") instanceof ObjectNode m && m.has("managedFields")
                    ? edit(n -> ((ObjectNode) n.get("metadata")).remove("managedFields"))
                    : this;
        }
        byte[] cut = JsonScanner.withoutNestedMember(json, METADATA, MANAGED_FIELDS);
        if (cut == json) {
            return this;
        }
        return cut == null
                ? edit(n -> {
                            if (n.get("metadata") instanceof ObjectNode m) {
                                m.remove("managedFields");
                            }
                        })
                        .compact()
                : new DynamicObject(cut, apiVersion, kind, namespace, name, resourceVersion, uid);
    }

    private static final byte[] METADATA = "metadata".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MANAGED_FIELDS = "managedFields".getBytes(StandardCharsets.US_ASCII);

    /** Converts to a typed object with Jackson. */
    public <T> T to(Class<T> type) {
        return json != null
                ? KubeJson.mapper().readValue(json, type)
                : KubeJson.mapper().treeToValue(node, type);
    }

    /** Compact JSON text; for a compact object exactly the bytes it was decoded from. */
    public String toJson() {
        return json != null
                ? new String(json, StandardCharsets.UTF_8)
                : KubeJson.mapper().writeValueAsString(node);
    }

    /** The JSON as UTF-8 bytes, a new array; for a compact object exactly the bytes it was decoded from. */
    public byte[] toJsonBytes() {
        return json != null ? json.clone() : KubeJson.mapper().writeValueAsBytes(node);
    }

    /** The compact bytes, not copied, for this package's writers; null in tree form. */
    byte[] jsonBytes() {
        return json;
    }

    /** Compact form only: {@code metadata.labels} read from the bytes (nothing else parsed); null when absent. */
    Map<String, String> compactLabels() {
        return DynamicObjectReader.readLabels(json);
    }

    String metaNamespace() {
        return json != null ? namespace : metaText("namespace");
    }

    String metaName() {
        return json != null ? name : metaText("name");
    }

    String metaResourceVersion() {
        return json != null ? resourceVersion : metaText("resourceVersion");
    }

    String metaUid() {
        return json != null ? uid : metaText("uid");
    }

    private String metaText(String field) {
        JsonNode meta = node.get("metadata");
        return meta == null ? null : text(meta, field);
    }

    private static String text(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }

    /** Equal when both hold the same JSON value, in either form (field order does not matter). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DynamicObject other)) {
            return false;
        }
        if (json != null && other.json != null) {
            if (Arrays.equals(json, other.json)) {
                return true;
            }
            if (!Objects.equals(name, other.name)
                    || !Objects.equals(namespace, other.namespace)
                    || !Objects.equals(resourceVersion, other.resourceVersion)
                    || !Objects.equals(uid, other.uid)) {
                return false;
            }
        }
        return node().equals(other.node());
    }

    /** The hash of the JSON tree (a parse for a compact object), consistent with {@link #equals}. */
    @Override
    public int hashCode() {
        return node().hashCode();
    }

    @Override
    public String toString() {
        String ns = metaNamespace();
        return "DynamicObject[" + kind() + " " + (ns == null || ns.isEmpty() ? "" : ns + "/") + metaName() + "]";
    }
}
