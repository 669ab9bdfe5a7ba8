package io.kubeloop.bench.server;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The benchmark's objects: small, deterministic ConfigMaps (about 250 bytes of JSON as sent), the same
 * bytes for every server. Stateless.
 */
final class ConfigMaps {

    /** The name of the object every watcher must see before a fan-out is timed. */
    static final String SENTINEL = "sentinel";

    private static final String PAYLOAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

    private ConfigMaps() {}

    /** The name of object {@code i} with {@code prefix}, e.g. {@code cm-000042}. */
    static String name(String prefix, int i) {
        return String.format(Locale.ROOT, "%s-%06d", prefix, i);
    }

    /** The JSON of ConfigMap {@code name} (index {@code i} decides its data). */
    static byte[] json(String name, int i) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                        + "\",\"labels\":{\"app\":\"server-bench\",\"shard\":\"" + (i % 16)
                        + "\"}},\"data\":{\"index\":\"" + i
                        + "\",\"payload\":\"" + PAYLOAD.substring(i % 8) + PAYLOAD.substring(0, i % 8) + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The JSON of namespace {@code name}. */
    static byte[] namespace(String name) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The collection path of ConfigMaps in {@code namespace}. */
    static String path(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/configmaps";
    }
}
