package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The RBAC objects as the server's storage holds them right now (no cache: a change is seen by the next
 * decision).
 *
 * <p>Thread-safe (the store is).
 */
public final class StorePolicySource implements PolicySource {

    private static final String GROUP = "rbac.authorization.k8s.io/";

    private final VersionedStore store;

    public StorePolicySource(VersionedStore store) {
        this.store = store;
    }

    @Override
    public List<JsonNode> clusterRoleBindings() {
        return list("clusterrolebindings", null);
    }

    @Override
    public List<JsonNode> roleBindings(String namespace) {
        return list("rolebindings", namespace);
    }

    @Override
    public Optional<JsonNode> clusterRole(String name) {
        return store.get(GROUP + "clusterroles", name).map(StoredObject::object);
    }

    @Override
    public Optional<JsonNode> role(String namespace, String name) {
        return store.get(GROUP + "roles", Metadata.key(namespace, name)).map(StoredObject::object);
    }

    private List<JsonNode> list(String resource, String namespace) {
        return store.list(ListQuery.all(GROUP + resource, namespace)).items().stream()
                .map(o -> (JsonNode) o.object())
                .toList();
    }

    /** The uids of stored ServiceAccounts, for token validation and TokenRequests. */
    public ServiceAccountTokens.Accounts serviceAccounts() {
        return (namespace, name) ->
                store.get("/serviceaccounts", Metadata.key(namespace, name)).map(o -> Metadata.text(o.object(), "uid"));
    }
}
