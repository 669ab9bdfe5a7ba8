package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.internal.RequestInfo;
import java.util.Objects;
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

    /** The same request with verb {@code otherVerb} (a second authorization of one request). */
    public RequestAttributes withVerb(String otherVerb) {
        return new RequestAttributes(
                user, otherVerb, resourceRequest, path, apiGroup, apiVersion, resource, subresource, namespace, name);
    }

    /** The same request asked by {@code other}. */
    public RequestAttributes as(UserInfo other) {
        return new RequestAttributes(
                other, verb, resourceRequest, path, apiGroup, apiVersion, resource, subresource, namespace, name);
    }

    /**
     * Resolves a request's attributes from its method, path and query, as kube-apiserver's request-info
     * resolver does ({@link RequestInfo}).
     *
     * @param query the value of a query parameter, or null
     */
    public static RequestAttributes of(UserInfo user, String method, String path, Function<String, String> query) {
        return of(user, RequestInfo.resolve(method, path, query));
    }

    /** The attributes of a resolved request asked by {@code user}. */
    public static RequestAttributes of(UserInfo user, RequestInfo i) {
        return new RequestAttributes(
                user,
                i.verb(),
                i.resourceRequest(),
                i.path(),
                i.apiGroup(),
                i.apiVersion(),
                i.resource(),
                i.subresource(),
                i.namespace(),
                i.name());
    }
}
