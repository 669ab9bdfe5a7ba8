package io.kubeloop.client;

import io.kubeloop.api.GroupVersionResource;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds request URIs: {@code /api/v1/...} for the core group, {@code /apis/{g}/{v}/...} otherwise,
 * {@code /namespaces/{ns}} for namespaced requests, names and values percent-encoded. Query
 * parameters are sorted by name, as Go's {@code url.Values.Encode} does. Stateless.
 */
final class ResourcePaths {

    private ResourcePaths() {}

    /** {@code server + /api/v1[/namespaces/ns]/resource[/name[/subresource]]} with the query. */
    static URI uri(
            URI server,
            GroupVersionResource gvr,
            String namespace,
            String name,
            String subresource,
            Map<String, String> query) {
        StringBuilder b = new StringBuilder(server.toString());
        if (gvr.group().isEmpty()) {
            b.append("/api/").append(segment(gvr.version()));
        } else {
            b.append("/apis/").append(segment(gvr.group())).append('/').append(segment(gvr.version()));
        }
        if (namespace != null) {
            b.append("/namespaces/").append(segment(namespace));
        }
        b.append('/').append(segment(gvr.resource()));
        if (name != null) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("resource name must not be empty");
            }
            b.append('/').append(segment(name));
        }
        if (subresource != null) {
            b.append('/').append(segment(subresource));
        }
        appendQuery(b, query);
        return URI.create(b.toString());
    }

    /** An arbitrary server path ({@code /apis}, {@code /version?x=y}) below the server URI. */
    static URI raw(URI server, String pathAndQuery) {
        if (!pathAndQuery.startsWith("/")) {
            throw new IllegalArgumentException("raw path must start with '/': " + pathAndQuery);
        }
        return URI.create(server + pathAndQuery);
    }

    static void appendQuery(StringBuilder b, Map<String, String> query) {
        char sep = '?';
        for (Map.Entry<String, String> e : new TreeMap<>(query).entrySet()) {
            b.append(sep).append(encode(e.getKey(), false)).append('=').append(encode(e.getValue(), false));
            sep = '&';
        }
    }

    /** One path segment: RFC 3986 pchar kept, everything else percent-encoded. */
    static String segment(String s) {
        return encode(s, true);
    }

    private static String encode(String s, boolean pathSegment) {
        StringBuilder out = new StringBuilder(s.length());
        for (byte raw : s.getBytes(StandardCharsets.UTF_8)) {
            int c = raw & 0xff;
            boolean unreserved = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~';
            boolean pathOk = pathSegment
                    && (c == ':' || c == '@' || c == '!' || c == '$' || c == '\'' || c == '(' || c == ')' || c == '*'
                            || c == '+' || c == ',' || c == ';' || c == '=');
            if (unreserved || pathOk) {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
