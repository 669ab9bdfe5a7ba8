package io.kubeloop.api.json;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The members of a {@code fieldsV1} object kept as its JSON bytes and read on first use: the children map
 * of a {@link Frozen.FrozenObject} read straight from bytes. A cache holds a managed-fields entry per
 * manager of every object, and its field set is a trie of dozens of small objects that controllers seldom
 * look at; as bytes it is one array, read into the same frozen tree the first time anything asks.
 *
 * <p>Unmodifiable. Thread-safe: the bytes never change, and concurrent first reads each read equal trees,
 * one of which is kept (published through a volatile field).
 */
final class LazyFields extends AbstractMap<String, JsonNode> {

    private final byte[] json;
    private volatile Map<String, JsonNode> members;

    /** Over {@code json}, a JSON object's bytes (taken over, not copied). */
    LazyFields(byte[] json) {
        this.json = json;
    }

    private Map<String, JsonNode> members() {
        Map<String, JsonNode> m = members;
        if (m == null) {
            JsonNode read = KubeJson.mapper().readTree(json);
            Map<String, JsonNode> copy = new LinkedHashMap<>();
            read.properties().forEach(e -> copy.put(e.getKey(), Frozen.tree(e.getValue())));
            m = Frozen.copyOf(copy);
            members = m;
        }
        return m;
    }

    @Override
    public Set<Entry<String, JsonNode>> entrySet() {
        return members().entrySet();
    }

    @Override
    public int size() {
        return members().size();
    }

    @Override
    public boolean isEmpty() {
        return members().isEmpty();
    }

    @Override
    public JsonNode get(Object key) {
        return members().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return members().containsKey(key);
    }
}
