package io.kubeloop.apiserver.internal.auth;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What a request asks to do, in kube-apiserver's authorization attributes: a resource request (verb, API
 * group and version, resource, subresource, namespace, name) or a non-resource request (verb and path).
 *
 * <p>Immutable and thread-safe.
 *
 * @param user who asks
 * @param verb e.g. {@code get}, {@code list}, {@code watch}, {@code create}; for a non-resource request the
 *     lower-cased HTTP method
 * @param resourceRequest whether this names a resource (else {@link #path} is what is asked for)
 * @param path the URL path
 * @param apiGroup the API group, {@code ""} for core
 * @param apiVersion the API version
 * @param resource the resource, e.g. {@code deployments}
 * @param subresource e.g. {@code status}, or {@code ""}
 * @param namespace the namespace, or {@code ""} at the cluster scope
 * @param name the object's name, or {@code ""}
 */
public record RequestAttributes(
        UserInfo user,
        String verb,
        boolean resourceRequest,
        String path,
        String apiGroup,
        String apiVersion,
        String resource,
        String subresource,
        String namespace,
        String name) {

    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    public RequestAttributes {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(verb, "verb");
        path = Objects.requireNonNullElse(path, "");
        apiGroup = Objects.requireNonNullElse(apiGroup, "");
        apiVersion = Objects.requireNonNullElse(apiVersion, "");
        resource = Objects.requireNonNullElse(resource, "");
        subresource = Objects.requireNonNullElse(subresource, "");
        namespace = Objects.requireNonNullElse(namespace, "");
        name = Objects.requireNonNullElse(name, "");
    }

    /** A resource request. */
    public static RequestAttributes resource(
            UserInfo user,
            String verb,
            String apiGroup,
            String resource,
            String subresource,
            String namespace,
            String name) {
        return new RequestAttributes(user, verb, true, "", apiGroup, "", resource, subresource, namespace, name);
    }

    /** A non-resource request. */
    public static RequestAttributes nonResource(UserInfo user, String verb, String path) {
        return new RequestAttributes(user, verb, false, path, "", "", "", "", "", "");
    }

    /** The same request naming the object {@code objectName} (a create names its object in the body). */
    public RequestAttributes named(String objectName) {
        return new RequestAttributes(
                user, verb, resourceRequest, path, apiGroup, apiVersion, resource, subresource, namespace, objectName);
    }

    /** The same request asked by {@code other}. */
    public RequestAttributes as(UserInfo other) {
        return new RequestAttributes(
                other, verb, resourceRequest, path, apiGroup, apiVersion, resource, subresource, namespace, name);
    }

    /**
     * Resolves a request's attributes from its method, path and query, as kube-apiserver's request-info
     * resolver does: {@code /api/v1/...} and {@code /apis/GROUP/VERSION/...} are resource requests (a
     * shorter path is not); {@code GET} on a collection is {@code list}, or {@code watch} with
     * {@code watch=true} or the {@code /watch/} prefix; {@code DELETE} on a collection is
     * {@code deletecollection}; a list or watch whose field selector fixes {@code metadata.name} names that
     * object.
     *
     * @param query the value of a query parameter, or null
     */
    public static RequestAttributes of(UserInfo user, String method, String path, Function<String, String> query) {
        List<String> parts =
                Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
        String lower = method.toLowerCase(Locale.ROOT);
        if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
            return nonResource(user, lower, path);
        }
        String group = "";
        List<String> rest = parts.subList(1, parts.size());
        if (parts.get(0).equals("apis")) {
            if (rest.size() < 3) {
                return nonResource(user, lower, path);
            }
            group = rest.get(0);
            rest = rest.subList(1, rest.size());
        }
        String version = rest.get(0);
        rest = rest.subList(1, rest.size());
        String verb;
        if (rest.get(0).equals("watch") || rest.get(0).equals("proxy")) {
            if (rest.size() < 2) {
                return nonResource(user, lower, path);
            }
            verb = rest.get(0);
            rest = rest.subList(1, rest.size());
        } else {
            verb = switch (method) {
                case "POST" -> "create";
                case "GET", "HEAD" -> "get";
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
            verb = watch != null && !watch.equals("0") && !watch.equalsIgnoreCase("false") ? "watch" : "list";
            name = exactName(query.apply("fieldSelector"));
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new RequestAttributes(user, verb, true, path, group, version, resource, subresource, namespace, name);
    }

    /** The name a field selector requires exactly ({@code metadata.name=N} or {@code ==}), or {@code ""}. */
    private static String exactName(String fieldSelector) {
        if (fieldSelector == null) {
            return "";
        }
        for (String term : fieldSelector.split(",")) {
            String t = term.strip();
            for (String op : List.of("==", "=")) {
                if (t.startsWith("metadata.name" + op)) {
                    String n = t.substring(("metadata.name" + op).length()).strip();
                    if (!n.isEmpty() && !n.contains("/") && !n.contains("%") && !n.equals(".") && !n.equals("..")) {
                        return n;
                    }
                }
            }
        }
        return "";
    }
}
