package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.client.FieldValidation;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in controllers' reads and writes of current objects: what the real controller-manager does
 * through its clients (REST mapping, GET, DELETE with a uid precondition, JSON merge patches guarded by the
 * resourceVersion), done in-process through the {@link ObjectRegistry} so every write has the API's
 * semantics, events and finalizer handling.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class LiveObjects {

    /** How the controllers' writes are recorded in managedFields (the manager the real server derives). */
    static final String USER_AGENT = "kube-controller-manager/kubeloop";

    /** Thrown when a reference names a kind the server does not serve (the real GC's REST mapping error). */
    static final class UnknownKindException extends RuntimeException {
        UnknownKindException(String apiVersion, String kind) {
            super("no resource serves kind " + kind + " in " + apiVersion, null, false, false);
        }
    }

    private final ObjectRegistry registry;

    LiveObjects(ObjectRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * The served definition of {@code apiVersion}/{@code kind} (its storage version's when several match).
     *
     * @throws UnknownKindException when no served resource has that kind in that group version
     */
    ResourceDefinition resolve(String apiVersion, String kind) {
        ResourceDefinition found = null;
        for (ResourceDefinition d : registry.resources().all()) {
            if (d.apiVersion().equals(apiVersion) && d.kind().equals(kind)) {
                if (found == null || d.version().equals(d.storageVersion())) {
                    found = d;
                }
            }
        }
        if (found == null) {
            throw new UnknownKindException(apiVersion, kind);
        }
        return found;
    }

    /** The definition to write {@code def}'s objects with: its storage version's. */
    private ResourceDefinition writable(ResourceDefinition def) {
        for (ResourceDefinition d : registry.resources().all()) {
            if (d.storageId().equals(def.storageId()) && d.version().equals(d.storageVersion())) {
                return d;
            }
        }
        return def;
    }

    /** The current object of {@code def} at {@code namespace}/{@code name}. */
    Optional<StoredObject> get(ResourceDefinition def, String namespace, String name) {
        return registry.store().get(def.storageId(), Metadata.key(def.namespaced() ? namespace : "", name));
    }

    /** The current object at {@code id}'s coordinates, if it still has {@code id}'s uid. */
    Optional<StoredObject> get(ObjectIdentity id) {
        ResourceDefinition def = resolve(id.apiVersion(), id.kind());
        return get(def, id.namespace(), id.name())
                .filter(o -> Metadata.text(o.object(), "uid").equals(id.uid()));
    }

    /** DELETE with a uid precondition; false when the object is gone (or another object took its name). */
    boolean delete(ObjectIdentity id, String propagationPolicy) {
        ResourceDefinition def = writable(resolve(id.apiVersion(), id.kind()));
        try {
            registry.delete(
                    def, id.namespace(), id.name(), DeleteParams.propagation(propagationPolicy, id.uid()), context());
            return true;
        } catch (NotFoundException e) {
            return false;
        } catch (ConflictException e) {
            return false; // uid precondition: the name now belongs to another object
        }
    }

    /**
     * Rewrites the ownerReferences of the object {@code id} with {@code change}, by a merge patch that carries
     * the resourceVersion it was computed from (retried on conflict); nothing when the object is gone or
     * {@code change} leaves them as they are.
     */
    void updateOwnerReferences(ObjectIdentity id, UnaryOperator<ArrayNode> change) {
        patchMetadata(
                id,
                meta -> {
                    ArrayNode refs = meta.get("ownerReferences") instanceof ArrayNode a
                            ? a.deepCopy()
                            : KubeJson.mapper().createArrayNode();
                    ArrayNode next = change.apply(refs.deepCopy());
                    return next.equals(refs)
                            ? null
                            : next.isEmpty() ? KubeJson.mapper().nullNode() : next;
                },
                "ownerReferences");
    }

    /** Removes {@code finalizer} from the object {@code id} (merge patch guarded by the resourceVersion). */
    void removeFinalizer(ObjectIdentity id, String finalizer) {
        patchMetadata(
                id,
                meta -> {
                    if (!(meta.get("finalizers") instanceof ArrayNode a)) {
                        return null;
                    }
                    ArrayNode next = KubeJson.mapper().createArrayNode();
                    a.forEach(f -> {
                        if (!f.asString().equals(finalizer)) {
                            next.add(f);
                        }
                    });
                    return next.size() == a.size()
                            ? null
                            : next.isEmpty() ? KubeJson.mapper().nullNode() : next;
                },
                "finalizers");
    }

    /** References of {@code refs} whose uid is in {@code uids} removed. */
    static ArrayNode without(ArrayNode refs, Predicate<String> uids) {
        ArrayNode out = KubeJson.mapper().createArrayNode();
        refs.forEach(r -> {
            if (!uids.test(r.path("uid").asString(""))) {
                out.add(r);
            }
        });
        return out;
    }

    /**
     * @param compute the new value of {@code metadata.<field>} from the current metadata: null for no change,
     *        a JSON null to remove the field
     */
    private void patchMetadata(ObjectIdentity id, Function<ObjectNode, JsonNode> compute, String field) {
        ResourceDefinition def = writable(resolve(id.apiVersion(), id.kind()));
        for (int attempt = 0; ; attempt++) {
            Optional<StoredObject> cur = get(def, id.namespace(), id.name())
                    .filter(o -> Metadata.text(o.object(), "uid").equals(id.uid()));
            if (cur.isEmpty()) {
                return;
            }
            JsonNode value = compute.apply(Metadata.metadata(cur.get().object().deepCopy()));
            if (value == null) {
                return;
            }
            ObjectNode patch = KubeJson.mapper().createObjectNode();
            ObjectNode meta = patch.putObject("metadata");
            meta.put("resourceVersion", Long.toString(cur.get().resourceVersion()));
            meta.set(field, value);
            try {
                registry.patch(
                        def,
                        id.namespace(),
                        id.name(),
                        "",
                        "application/merge-patch+json",
                        KubeJson.mapper().writeValueAsBytes(patch),
                        context());
                return;
            } catch (NotFoundException e) {
                return;
            } catch (ConflictException e) {
                if (attempt >= 4) {
                    throw e;
                }
            }
        }
    }

    private static WriteContext context() {
        return new WriteContext(null, USER_AGENT, false, FieldValidation.IGNORE, false);
    }
}
