package io.kubeloop.apiserver.internal.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a request's {@code Accept} header asks for: a Table, aggregated discovery, plain JSON, or
 * nothing this JSON-only server can produce.
 *
 * <p>Immutable.
 *
 * @param table a {@code meta.k8s.io} Table is acceptable and preferred
 * @param aggregatedDiscovery {@code APIGroupDiscoveryList} is acceptable ({@code v2}, or {@code v2beta1})
 * @param aggregatedVersion {@code v2} or {@code v2beta1}
 * @param json plain JSON is acceptable
 */
record Accepts(boolean table, boolean aggregatedDiscovery, String aggregatedVersion, boolean json) {

    static Accepts parse(String header) {
        if (header == null || header.isBlank()) {
            return new Accepts(false, false, null, true);
        }
        boolean table = false;
        boolean agg = false;
        String aggVersion = null;
        boolean json = false;
        boolean first = true;
        for (String range : header.split(",")) {
            List<String> parts = new ArrayList<>();
            for (String p : range.split(";")) {
                parts.add(p.strip());
            }
            String type = parts.getFirst().toLowerCase(Locale.ROOT);
            String as = param(parts, "as");
            String g = param(parts, "g");
            String v = param(parts, "v");
            boolean jsonType = type.equals("application/json") || type.equals("*/*") || type.equals("application/*");
            if (!jsonType) {
                first = false;
                continue;
            }
            if (as == null) {
                json = true;
            } else if (as.equals("Table") && "meta.k8s.io".equals(g) && ("v1".equals(v) || "v1beta1".equals(v))) {
                table = true;
            } else if (as.equals("APIGroupDiscoveryList")
                    && "apidiscovery.k8s.io".equals(g)
                    && ("v2".equals(v) || "v2beta1".equals(v))) {
                if (!agg) {
                    aggVersion = v;
                }
                agg = true;
            }
            first = false;
        }
        return new Accepts(table, agg, aggVersion, json);
    }

    private static String param(List<String> parts, String name) {
        for (int i = 1; i < parts.size(); i++) {
            String p = parts.get(i);
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).strip().equals(name)) {
                return p.substring(eq + 1).strip().replace("\"", "");
            }
        }
        return null;
    }
}
