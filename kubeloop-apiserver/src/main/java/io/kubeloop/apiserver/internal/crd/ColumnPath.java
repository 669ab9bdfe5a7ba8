package io.kubeloop.apiserver.internal.crd;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The JSONPath subset printer columns use ({@code additionalPrinterColumns[].jsonPath}): fields
 * ({@code .spec.replicas}, {@code .metadata['x.y']}), indexes ({@code [0]}), wildcards ({@code [*]}) and
 * equality filters ({@code .status.conditions[?(@.type=="Ready")].status}, also {@code !=}). The cell is
 * the first match, as kubectl's column printer shows it.
 *
 * <p>Immutable and thread-safe.
 */
final class ColumnPath {

    /** One step of the path. */
    private sealed interface Step {}

    private record Field(String name) implements Step {}

    private record Index(int index) implements Step {}

    private record Wildcard() implements Step {}

    private record Filter(List<String> path, boolean equal, String value) implements Step {}

    private final List<Step> steps;

    private ColumnPath(List<Step> steps) {
        this.steps = List.copyOf(steps);
    }

    /**
     * Parses a path ({@code {}} around it and a leading {@code $} are allowed).
     *
     * @throws IllegalArgumentException naming what is malformed
     */
    static ColumnPath parse(String path) {
        String p = path.strip();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1).strip();
        }
        if (p.startsWith("$")) {
            p = p.substring(1);
        }
        if (!p.startsWith(".") && !p.startsWith("[")) {
            throw new IllegalArgumentException("path must start with '.'");
        }
        List<Step> steps = new ArrayList<>();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int j = i + 1;
                while (j < p.length() && p.charAt(j) != '.' && p.charAt(j) != '[') {
                    j++;
                }
                if (j > i + 1) {
                    steps.add(new Field(p.substring(i + 1, j)));
                } else if (j < p.length() && p.charAt(j) != '[') {
                    throw new IllegalArgumentException("empty field name at " + i);
                }
                i = j;
            } else if (c == '[') {
                int j = closing(p, i);
                steps.add(bracket(p.substring(i + 1, j).strip()));
                i = j + 1;
            } else {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
            }
        }
        return new ColumnPath(steps);
    }

    private static int closing(String p, int open) {
        char quote = 0;
        for (int i = open + 1; i < p.length(); i++) {
            char c = p.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == ']') {
                return i;
            }
        }
        throw new IllegalArgumentException("unclosed '[' at " + open);
    }

    private static Step bracket(String inner) {
        if (inner.equals("*")) {
            return new Wildcard();
        }
        if (inner.startsWith("'") || inner.startsWith("\"")) {
            return new Field(unquote(inner));
        }
        if (inner.startsWith("?(") && inner.endsWith(")")) {
            String expr = inner.substring(2, inner.length() - 1).strip();
            boolean equal = !expr.contains("!=");
            String[] sides = expr.split(equal ? "==" : "!=", 2);
            if (sides.length != 2 || !sides[0].strip().startsWith("@.")) {
                throw new IllegalArgumentException("unsupported filter " + inner);
            }
            List<String> path = List.of(sides[0].strip().substring(2).split("\\."));
            return new Filter(path, equal, unquote(sides[1].strip()));
        }
        try {
            return new Index(Integer.parseInt(inner));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unsupported index [" + inner + "]");
        }
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("'") && s.endsWith("'") || s.startsWith("\"") && s.endsWith("\""))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    /** The first node the path selects in {@code root}, or null (missing values are null cells). */
    JsonNode first(JsonNode root) {
        List<JsonNode> current = List.of(root);
        for (Step step : steps) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode n : current) {
                switch (step) {
                    case Field f -> add(next, n.get(f.name()));
                    case Index x ->
                        add(next, n.isArray() ? n.get(x.index() < 0 ? n.size() + x.index() : x.index()) : null);
                    case Wildcard w -> n.values().forEach(v -> add(next, v));
                    case Filter f -> {
                        for (JsonNode item : n.isArray() ? n.values() : List.<JsonNode>of()) {
                            JsonNode v = item;
                            for (String part : f.path()) {
                                v = v == null ? null : v.get(part);
                            }
                            boolean match =
                                    v != null && v.isValueNode() && v.asString().equals(f.value());
                            if (match == f.equal()) {
                                add(next, item);
                            }
                        }
                    }
                }
            }
            current = next;
            if (current.isEmpty()) {
                return null;
            }
        }
        return current.getFirst();
    }

    private static void add(List<JsonNode> out, JsonNode n) {
        if (n != null && !n.isMissingNode() && !n.isNull()) {
            out.add(n);
        }
    }
}
