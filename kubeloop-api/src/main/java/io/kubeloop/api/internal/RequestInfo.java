package io.kubeloop.api.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * What an API request asks, as kube-apiserver's request-info resolver derives it before authorizing — shared
 * by the embedded server's RBAC and the client-side recorder of a manager's API use:
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
 * <p>Immutable and thread-safe.
 *
 * @param resourceRequest whether the request names a resource (else {@link #path} is what it asks for)
 * @param verb e.g. {@code get}, {@code list}, {@code watch}; for a non-resource request the lower-cased method
 * @param path the URL path
 * @param apiGroup the API group, {@code ""} for core
 * @param apiVersion the API version, {@code ""} for a non-resource request
 * @param resource e.g. {@code deployments}
 * @param subresource e.g. {@code status}, or {@code ""}
 * @param namespace the namespace, or {@code ""}
 * @param name the object's name, or {@code ""}
 */
public record RequestInfo(
        boolean resourceRequest,
        String verb,
        String path,
        String apiGroup,
        String apiVersion,
        String resource,
        String subresource,
        String namespace,
        String name) {

    private static final Set<String> SPECIAL_VERBS = Set.of("watch", "proxy");
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /**
     * Resolves a request.
     *
     * @param method the HTTP method
     * @param path the URL path
     * @param query the first value of a query parameter (decoded), or null when absent
     */
    public static RequestInfo resolve(String method, String path, Function<String, String> query) {
        List<String> parts = split(path);
        if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
            return nonResource(method, path);
        }
        String group = "";
        List<String> rest = parts.subList(1, parts.size());
        if (parts.get(0).equals("apis")) {
            if (rest.size() < 3) {
                return nonResource(method, path);
            }
            group = rest.get(0);
            rest = rest.subList(1, rest.size());
        }
        String version = rest.get(0);
        rest = rest.subList(1, rest.size());
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
            String watch = query.apply("watch");
            verb = watch != null && !isFalse(watch) ? "watch" : "list";
            name = exactName(query.apply("fieldSelector"));
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new RequestInfo(true, verb, path, group, version, resource, subresource, namespace, name);
    }

    private static RequestInfo nonResource(String method, String path) {
        return new RequestInfo(false, method.toLowerCase(Locale.ROOT), path, "", "", "", "", "", "");
    }

    private static boolean isFalse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return v.equals("false") || v.equals("0");
    }

    /** The name a field selector requires {@code metadata.name} to equal, or {@code ""}. */
    private static String exactName(String selector) {
        if (selector == null) {
            return "";
        }
        for (String term : selector.split(",")) {
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

    private static List<String> split(String path) {
        return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }
}
