package io.kubeloop.apiserver.internal.auth;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The RBAC objects authorization reads: ClusterRoleBindings, the RoleBindings of a namespace, and roles by
 * name, as their JSON. Implementations read the server's storage and are thread-safe; the objects they return
 * are not to be changed.
 */
public interface PolicySource {

    /** Every ClusterRoleBinding. */
    List<JsonNode> clusterRoleBindings();

    /** The RoleBindings of {@code namespace}. */
    List<JsonNode> roleBindings(String namespace);

    /** ClusterRole {@code name}. */
    Optional<JsonNode> clusterRole(String name);

    /** Role {@code namespace/name}. */
    Optional<JsonNode> role(String namespace, String name);
}
