package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One committed write as the {@link Journal} records it: revision, resource, key and the new JSON (null
 * for a deletion). {@link #toBytes()} / {@link #fromBytes(byte[])} give the byte form a write-ahead log
 * stores; the format is one JSON object, e.g.
 * {@code {"rv":42,"resource":"apps/deployments","key":"default/web","object":{...}}}.
 *
 * <p>Immutable by contract (do not modify {@code json}).
 *
 * @param resourceVersion the revision
 * @param resource the store's resource id
 * @param key {@code namespace/name} or {@code name}
 * @param json the stored object's JSON, or null when the key was deleted
 */
public record Mutation(long resourceVersion, String resource, String key, byte[] json) {

    public Mutation {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(key, "key");
    }

    /** True for a deletion. */
    public boolean isDelete() {
        return json == null;
    }

    /** The journal's byte form. */
    public byte[] toBytes() {
        String head = "{\"rv\":" + resourceVersion + ",\"resource\":" + quote(resource) + ",\"key\":" + quote(key)
                + ",\"object\":";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] body = json == null ? "null".getBytes(StandardCharsets.UTF_8) : json;
        byte[] out = new byte[h.length + body.length + 1];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(body, 0, out, h.length, body.length);
        out[out.length - 1] = '}';
        return out;
    }

    /**
     * Decodes {@link #toBytes()}.
     *
     * @throws IllegalArgumentException when the bytes are not a mutation record
     */
    public static Mutation fromBytes(byte[] bytes) {
        try {
            JsonNode n = KubeJson.mapper().readTree(bytes);
            JsonNode obj = n.get("object");
            byte[] json = obj == null || obj.isNull() ? null : KubeJson.mapper().writeValueAsBytes(obj);
            if (!(obj == null || obj.isNull() || obj instanceof ObjectNode)) {
                throw new IllegalArgumentException("journal record: object is not a JSON object");
            }
            return new Mutation(
                    n.get("rv").asLong(),
                    n.get("resource").asString(),
                    n.get("key").asString(),
                    json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("corrupt journal record: " + e.getMessage(), e);
        }
    }

    private static String quote(String s) {
        return KubeJson.mapper().writeValueAsString(s);
    }
}
