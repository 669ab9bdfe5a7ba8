package io.kubeloop.apiserver.internal.schema;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Writes a JSON tree as block-style YAML text, the form gnostic stores in {@code Any.yaml} (vendor
 * extensions, defaults, enum values) and kube-openapi and kubectl read back with Go's YAML
 * parsers: mappings and sequences in block style indented by four, strings plain when they are
 * simple words no YAML 1.1 parser reads as anything else ({@code apps}, {@code v1},
 * {@code io.k8s.api.apps.v1.Deployment}), otherwise double-quoted with escapes. The text ends with a
 * newline. Keys keep the tree's order.
 *
 * <p>Stateless.
 */
public final class YamlText {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_/][A-Za-z0-9_./-]*");
    /** Words YAML 1.1 (gopkg.in/yaml.v2) resolves to booleans or null. */
    private static final Set<String> RESERVED = Set.of("y", "yes", "n", "no", "true", "false", "on", "off", "null");

    private static final int INDENT = 4;

    private YamlText() {}

    public static String of(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        if (isBlock(node)) {
            block(sb, node, 0);
        } else {
            sb.append(scalar(node)).append('\n');
        }
        return sb.toString();
    }

    private static boolean isBlock(JsonNode n) {
        return n.isContainer() && !n.isEmpty();
    }

    /** Writes a non-empty mapping or sequence, every line starting with {@code indent} spaces. */
    private static void block(StringBuilder sb, JsonNode n, int indent) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                sb.append(" ".repeat(indent)).append(string(e.getKey())).append(':');
                JsonNode v = e.getValue();
                if (isBlock(v)) {
                    sb.append('\n');
                    block(sb, v, indent + INDENT);
                } else {
                    sb.append(' ').append(scalar(v)).append('\n');
                }
            }
            return;
        }
        for (JsonNode v : n) {
            sb.append(" ".repeat(indent)).append('-');
            if (isBlock(v)) {
                // the element's first line goes after "- ", the rest stay aligned beneath it
                StringBuilder inner = new StringBuilder();
                block(inner, v, indent + 2);
                sb.append(' ').append(inner, indent + 2, inner.length());
            } else {
                sb.append(' ').append(scalar(v)).append('\n');
            }
        }
    }

    private static String scalar(JsonNode n) {
        if (n.isObject()) {
            return "{}";
        }
        if (n.isArray()) {
            return "[]";
        }
        if (n.isString()) {
            return string(n.stringValue());
        }
        if (n.isNull() || n.isMissingNode()) {
            return "null";
        }
        // booleans and numbers: JSON's spelling is YAML's
        return n.toString();
    }

    static String string(String s) {
        if (PLAIN.matcher(s).matches() && !RESERVED.contains(s.toLowerCase(Locale.ROOT))) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (cp < 0x20
                            || (cp >= 0x7F && cp <= 0x9F)
                            || cp == 0x2028
                            || cp == 0x2029
                            || cp == 0xFEFF
                            || (cp >= 0xD800 && cp <= 0xDFFF)) {
                        sb.append(String.format("\\u%04X", cp));
                    } else {
                        sb.appendCodePoint(cp);
                    }
                }
            }
        });
        return sb.append('"').toString();
    }
}
