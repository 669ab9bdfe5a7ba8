package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.Status;
import java.util.Map;

/**
 * kube-apiserver's 403 for a request the authorizer refused, word for word:
 * {@code deployments.apps "web" is forbidden: User "u" cannot get resource "deployments" in API group "apps"
 * in the namespace "ns"}, {@code … at the cluster scope} without a namespace,
 * {@code forbidden: User "u" cannot get path "/metrics"} for a non-resource request, and the authorizer's
 * reason after a colon when it gave one; and the shorter refusal of a check made while the request is served
 * ({@link #ofObject}).
 *
 * <p>Stateless.
 */
public final class Forbidden {

    private Forbidden() {}

    /** The refusal of {@code a}, with the authorizer's {@code reason} ({@code ""} for none). */
    public static ForbiddenException of(RequestAttributes a, String reason) {
        String msg = message(a) + (reason == null || reason.isEmpty() ? "" : ": " + reason);
        String qualified =
                a.resourceRequest() ? (a.apiGroup().isEmpty() ? a.resource() : a.resource() + "." + a.apiGroup()) : "";
        String full;
        if (qualified.isEmpty()) {
            full = "forbidden: " + msg;
        } else if (a.name().isEmpty()) {
            full = qualified + " is forbidden: " + msg;
        } else {
            full = qualified + " \"" + a.name() + "\" is forbidden: " + msg;
        }
        Status.Details details = qualified.isEmpty()
                ? null
                : new Status.Details(
                        a.name().isEmpty() ? null : a.name(),
                        a.apiGroup().isEmpty() ? null : a.apiGroup(),
                        a.resource(),
                        null,
                        null,
                        null);
        return new ForbiddenException(
                new Status("Status", "v1", Map.of(), Status.FAILURE, full, "Forbidden", details, 403));
    }

    /**
     * The refusal of a check kube-apiserver makes while serving a request that its handler chain already
     * authorized (the {@code create} of an apply or PUT that creates): apimachinery's {@code NewForbidden} of
     * the resource and name with the authorizer's reason as the error, e.g.
     * {@code configmaps "web" is forbidden: } (an RBAC denial without errors gives an empty reason, kept as is).
     */
    public static ForbiddenException ofObject(RequestAttributes a, String reason) {
        return forbidden(a.apiGroup(), a.resource(), a.name(), reason == null ? "" : reason);
    }

    /**
     * apimachinery's {@code NewForbidden(groupResource, name, err)}: {@code RESOURCE[.GROUP] ["NAME" ]is forbidden:
     * WHY}, details naming the group, resource and name.
     */
    public static ForbiddenException forbidden(String group, String resource, String name, String why) {
        String qualified = group.isEmpty() ? resource : resource + "." + group;
        String message = name.isEmpty()
                ? qualified + " is forbidden: " + why
                : qualified + " \"" + name + "\" is forbidden: " + why;
        return new ForbiddenException(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                message,
                "Forbidden",
                new Status.Details(
                        name.isEmpty() ? null : name, group.isEmpty() ? null : group, resource, null, null, null),
                403));
    }

    /** {@code User "u" cannot VERB resource "R[/SUB]" in API group "G" in the namespace "NS"} and its variants. */
    public static String message(RequestAttributes a) {
        String user = a.user().name();
        if (!a.resourceRequest()) {
            return "User \"" + user + "\" cannot " + a.verb() + " path \"" + a.path() + "\"";
        }
        String resource = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
        String where = a.namespace().isEmpty() ? "at the cluster scope" : "in the namespace \"" + a.namespace() + "\"";
        return "User \"" + user + "\" cannot " + a.verb() + " resource \"" + resource + "\" in API group \""
                + a.apiGroup() + "\" " + where;
    }
}
