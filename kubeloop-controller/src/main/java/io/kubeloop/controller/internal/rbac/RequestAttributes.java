package io.kubeloop.controller.internal.rbac;

import io.kubeloop.controller.rbac.ApiAccess;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A request's RBAC attributes from its HTTP method and URL, as kube-apiserver's request-info
 * resolver derives them before authorizing:
 *
 * <ul>
 *   <li>Paths under {@code /api/v1/…} (the core group) and {@code /apis/GROUP/VERSION/…} with at least a
 *       resource are resource requests; every other path ({@code /version}, {@code /apis},
 *       {@code /apis/apps/v1}) is a non-resource request whose verb is the method in lower case.</li>
 *   <li>The verb follows the method: GET and HEAD {@code get}, POST {@code create}, PUT {@code update},
 *       PATCH {@code patch}, DELETE {@code delete}; a path after the version starting with
 *       {@code watch/} or {@code proxy/} has that verb instead. A {@code get} without an object name is a
 *       {@code list}, or a {@code watch} with the {@code watch} parameter set to anything but
 *       {@code false} or {@code 0}; a {@code delete} without a name is a {@code deletecollection}.</li>
 *   <li>{@code namespaces/NS/RESOURCE/NAME/SUBRESOURCE}: the namespace, then resource, name and
 *       subresource; {@code namespaces/NS} alone, {@code namespaces/NS/status} and
 *       {@code namespaces/NS/finalize} address the Namespace object itself. A proxy has no subresource.</li>
 *   <li>A list or watch whose field selector requires {@code metadata.name} to equal one value names
 *       that object.</li>
 * </ul>
 *
 * <p>Stateless.
 */
public final class RequestAttributes {

    private static final Set<String> SPECIAL_VERBS = Set.of("watch", "proxy");
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    private RequestAttributes() {}

    /**
     * The attributes of one request.
     *
     * @param method the HTTP method
     * @param uri the request URI, query included
     * @return a resource or a non-resource access
     */
    public static ApiAccess of(String method, URI uri) {
        String path = uri.getPath() == null ? "/" : uri.getPath();
        List<String> parts = split(path);
        if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
            return new ApiAccess.NonResource(method.toLowerCase(Locale.ROOT), path);
        }
        String group = "";
        List<String> rest = parts.subList(1, parts.size());
        if (parts.get(0).equals("apis")) {
            if (rest.size() < 3) {
                return new ApiAccess.NonResource(method.toLowerCase(Locale.ROOT), path);
            }
            group = rest.get(0);
            rest = rest.subList(1, rest.size());
        }
        rest = rest.subList(1, rest.size()); // the version
        String verb;
        if (SPECIAL_VERBS.contains(rest.get(0)) && rest.size() >= 2) {
            verb = rest.get(0);
            rest = rest.subList(1, rest.size());
        } else {
            verb = switch (method.toUpperCase(Locale.ROOT)) {
                case "GET", "HEAD" -> "get";
                case "POST" -> "create";
                case "PUT" -> "update";
                case "PATCH" -> "patch";
                case "DELETE" -> "delete";
                default -> "";
            };
        }
        String namespace = "";
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
                rest = rest.subList(2, rest.size());
            }
        }
        String resource = rest.get(0);
        String name = rest.size() >= 2 ? rest.get(1) : "";
        String subresource = rest.size() >= 3 && !verb.equals("proxy") ? rest.get(2) : "";
        if (name.isEmpty() && verb.equals("get")) {
            List<String> watch = query(uri, "watch");
            verb = !watch.isEmpty() && !isFalse(watch.get(0)) ? "watch" : "list";
            name = exactName(query(uri, "fieldSelector"));
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new ApiAccess.Resource(verb, group, resource, subresource, namespace, name);
    }

    private static boolean isFalse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return v.equals("false") || v.equals("0");
    }

    /** The name a field selector requires {@code metadata.name} to equal, or {@code ""}. */
    private static String exactName(List<String> selectors) {
        if (selectors.isEmpty()) {
            return "";
        }
        for (String term : selectors.get(0).split(",")) {
            String t = term.trim();
            int eq = t.indexOf('=');
            if (eq <= 0 || t.charAt(eq - 1) == '!') {
                continue;
            }
            String field = t.substring(0, eq).trim();
            String value =
                    t.substring(t.startsWith("=", eq + 1) ? eq + 2 : eq + 1).trim();
            if (field.equals("metadata.name") && isPathSegmentName(value)) {
                return value;
            }
        }
        return "";
    }

    /** Whether a name may stand in a URL path segment, as the API server requires of names. */
    private static boolean isPathSegmentName(String name) {
        return !name.isEmpty() && !name.equals(".") && !name.equals("..") && !name.contains("/") && !name.contains("%");
    }

    private static List<String> query(URI uri, String key) {
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (k.equals(key)) {
                values.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return values;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static List<String> split(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("/"));
    }
}
