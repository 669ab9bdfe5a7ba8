package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.json.KubeJson;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Byte-stable JSON: object keys sorted at every level (as Go's {@code json.Marshal} sorts map
 * keys), compact, UTF-8; plus kube-openapi's document hash (upper-case hex SHA-512). The same tree
 * always gives the same bytes and so the same hash, which is what lets kubectl cache OpenAPI
 * documents by {@code ?hash=}. Stateless.
 */
public final class CanonicalJson {

    private CanonicalJson() {}

    public static byte[] bytes(JsonNode tree) {
        return KubeJson.mapper().writeValueAsBytes(sorted(tree));
    }

    public static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(n.properties());
            entries.sort(Map.Entry.comparingByKey());
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : entries) {
                o.set(e.getKey(), sorted(e.getValue()));
            }
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            n.forEach(v -> a.add(sorted(v)));
            return a;
        }
        return n;
    }

    /** {@code fmt.Sprintf("%X", sha512.Sum512(data))}. */
    public static String hash(byte[] data) {
        try {
            return HexFormat.of()
                    .withUpperCase()
                    .formatHex(MessageDigest.getInstance("SHA-512").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is required of every JDK", e);
        }
    }
}
