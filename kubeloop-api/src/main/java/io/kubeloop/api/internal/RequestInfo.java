package io.kubeloop.api.internal;

import io.kubeloop.api.selector.FieldSelector;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.SelectorParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
 *       {@code watch/} or {@code proxy/} has that verb instead (the legacy watch paths: a named one,
 *       {@code watch/namespaces/NS/pods/NAME}, is a {@code watch} of that name). A {@code get} without an
 *       object name is a {@code list}, or a {@code watch} when the first {@code watch} parameter is
 *       anything but {@code false} (any case) or {@code 0}, the empty value included; a {@code get} of a
 *       named object stays a {@code get} whatever its {@code watch} parameter says. A {@code delete}
 *       without a name is a {@code deletecollection}.</li>
 *   <li>{@code namespaces/NS/RESOURCE/NAME/SUBRESOURCE}: the namespace, then resource, name and
 *       subresource; {@code namespaces/NS} alone, {@code namespaces/NS/status} and
 *       {@code namespaces/NS/finalize} address the Namespace object itself. A proxy has no subresource.</li>
 *   <li>A list or watch (not a legacy {@code watch/} path) whose field selector requires {@code metadata.name}
 *       to equal one value names that object, when the value may stand in a URL path segment. The list
 *       options must decode: a label or field selector that does not parse, or a {@code limit} or
 *       {@code timeoutSeconds} that is no integer, leaves the request unnamed (its verb still follows the
 *       {@code watch} parameter).</li>
 *   <li>A path whose {@code watch/} or {@code proxy/} is its last part cannot be resolved:
 *       {@link Unresolvable}.</li>
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
     * A request path kube-apiserver's resolver cannot read ({@code /api/v1/watch}): kube-apiserver answers
     * it with a plain-text 500 before it authenticates.
     */
    public static final class Unresolvable extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        Unresolvable() {
            super("unable to determine kind and namespace from url");
        }
    }

    /**
     * Resolves a request.
     *
     * @param method the HTTP method
     * @param path the URL path
     * @param query the first value of a query parameter (decoded), or null when absent
     * @throws Unresolvable when a {@code watch} or {@code proxy} path part has nothing after it
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
        if (SPECIAL_VERBS.contains(rest.get(0))) {
            if (rest.size() < 2) {
                throw new Unresolvable();
            }
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
            name = listOptionsDecode(query) ? exactName(query.apply("fieldSelector")) : "";
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new RequestInfo(true, verb, path, group, version, resource, subresource, namespace, name);
    }

    private static RequestInfo nonResource(String method, String path) {
        return new RequestInfo(false, method.toLowerCase(Locale.ROOT), path, "", "", "", "", "", "");
    }

    /** A query boolean that is false: {@code 0} or {@code false} in any case, nothing trimmed. */
    private static boolean isFalse(String value) {
        return value.equals("0") || value.equalsIgnoreCase("false");
    }

    /**
     * Whether the list options of a query decode: the selectors parse and the integer parameters are
     * integers. (The other list options are strings or booleans, which always decode.)
     */
    private static boolean listOptionsDecode(Function<String, String> query) {
        try {
            String labels = query.apply("labelSelector");
            if (labels != null) {
                LabelSelector.parse(labels);
            }
            String fields = query.apply("fieldSelector");
            if (fields != null) {
                FieldSelector.parse(fields);
            }
        } catch (SelectorParseException e) {
            return false;
        }
        return isInteger(query.apply("limit")) && isInteger(query.apply("timeoutSeconds"));
    }

    /** Absent, or a base-10 64-bit integer as Go's {@code strconv.ParseInt} reads it (sign allowed, nothing else). */
    private static boolean isInteger(String value) {
        if (value == null) {
            return true;
        }
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The name a field selector requires {@code metadata.name} to equal, or {@code ""}: the first such
     * term (terms sorted), when its value may stand in a path segment.
     */
    private static String exactName(String selector) {
        if (selector == null) {
            return "";
        }
        Optional<String> name = FieldSelector.parse(selector).requiresExactMatch("metadata.name");
        return name.filter(RequestInfo::isPathSegmentName).orElse("");
    }

    /** Whether a name may stand in a URL path segment, as the API server requires of names. */
    private static boolean isPathSegmentName(String name) {
        return !name.isEmpty() && !name.equals(".") && !name.equals("..") && !name.contains("/") && !name.contains("%");
    }

    private static List<String> split(String path) {
        return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }
}
