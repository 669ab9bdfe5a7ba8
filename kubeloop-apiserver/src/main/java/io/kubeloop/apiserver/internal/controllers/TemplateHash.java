package io.kubeloop.apiserver.internal.controllers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The {@code pod-template-hash} of a Pod template, made as kube-controller-manager makes it: a 32-bit FNV-1a
 * hash of the template (here its JSON with keys sorted, so equal templates hash alike whatever their field
 * order) and the Deployment's collision count, written in decimal and each digit mapped into the alphabet of
 * vowel-free characters that Kubernetes uses for generated names (so a hash never spells a word).
 *
 * <p>Stateless and thread-safe.
 */
final class TemplateHash {

    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    private TemplateHash() {}

    /** The hash label value of {@code template} with {@code collisionCount} collisions so far. */
    static String of(JsonNode template, int collisionCount) {
        StringBuilder canonical = new StringBuilder();
        write(template, canonical);
        int hash = FNV_OFFSET;
        for (byte b : canonical.toString().getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        if (collisionCount > 0) {
            byte[] count = new byte[8];
            for (int i = 0; i < 4; i++) {
                count[i] = (byte) (collisionCount >>> (8 * i));
            }
            for (byte b : count) {
                hash ^= b & 0xff;
                hash *= FNV_PRIME;
            }
        }
        String decimal = Integer.toUnsignedString(hash);
        StringBuilder out = new StringBuilder(decimal.length());
        for (int i = 0; i < decimal.length(); i++) {
            out.append(ALPHANUMS.charAt(decimal.charAt(i) % ALPHANUMS.length()));
        }
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<String> keys = new ArrayList<>(node.propertyNames());
            keys.sort(null);
            out.append('{');
            for (String k : keys) {
                out.append('"').append(k).append("\":");
                write(node.get(k), out);
                out.append(',');
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (JsonNode e : node) {
                write(e, out);
                out.append(',');
            }
            out.append(']');
        } else {
            out.append(node.toString());
        }
    }
}
