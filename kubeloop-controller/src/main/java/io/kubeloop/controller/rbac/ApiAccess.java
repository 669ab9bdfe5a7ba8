package io.kubeloop.controller.rbac;

import java.util.Objects;

/**
 * What one API request asks to do, in the terms RBAC decides on (the API server's request
 * attributes): a verb on a resource, or a verb on a non-resource URL. {@link AccessRecorder} derives
 * them from the requests a client sends; {@link PolicyRule#allows} decides on them.
 *
 * <p>Closed: a request is a {@link Resource} or a {@link NonResource} access. Immutable and thread-safe.
 */
public sealed interface ApiAccess permits ApiAccess.Resource, ApiAccess.NonResource {

    /** The verb: {@code get, list, watch, create, update, patch, delete, deletecollection}, or a non-resource request's HTTP method in lower case. */
    String verb();

    /**
     * A request for a resource, such as {@code GET /apis/apps/v1/namespaces/shop/deployments/web}
     * ({@code get} of {@code deployments} in group {@code apps}, namespace {@code shop}, name
     * {@code web}). Absent parts are {@code ""}, never null.
     *
     * @param verb the verb
     * @param group the API group, {@code ""} for the core group
     * @param resource the resource, e.g. {@code deployments}
     * @param subresource the subresource, e.g. {@code status}, or {@code ""}
     * @param namespace the namespace, or {@code ""} for a cluster-scoped resource or all namespaces
     * @param name the object's name, or {@code ""} for a collection or a create
     */
    record Resource(String verb, String group, String resource, String subresource, String namespace, String name)
            implements ApiAccess {

        public Resource {
            Objects.requireNonNull(verb, "verb");
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(subresource, "subresource");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
        }

        /** e.g. {@code update apps/deployments/status shop/web}; the core group shows as no group. */
        @Override
        public String toString() {
            String what =
                    (group.isEmpty() ? "" : group + "/") + resource + (subresource.isEmpty() ? "" : "/" + subresource);
            String where = namespace.isEmpty() ? name : namespace + "/" + name;
            return verb + " " + what + (where.isEmpty() ? "" : " " + (name.isEmpty() ? "in " + namespace : where));
        }
    }

    /**
     * A request for a path outside the resource API, such as {@code GET /version}.
     *
     * @param verb the HTTP method in lower case
     * @param path the path, e.g. {@code /version}
     */
    record NonResource(String verb, String path) implements ApiAccess {

        public NonResource {
            Objects.requireNonNull(verb, "verb");
            Objects.requireNonNull(path, "path");
        }

        /** e.g. {@code get /version}. */
        @Override
        public String toString() {
            return verb + " " + path;
        }
    }
}
