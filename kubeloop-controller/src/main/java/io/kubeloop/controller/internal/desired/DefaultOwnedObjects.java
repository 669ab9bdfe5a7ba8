package io.kubeloop.controller.internal.desired;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.internal.client.ApplyBodies;
import io.kubeloop.controller.util.AlreadyOwnedException;
import io.kubeloop.controller.util.Applied;
import io.kubeloop.controller.util.OwnedObjects;
import io.kubeloop.controller.util.OwnerReferences;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link OwnedObjects} over a reconcile's client and its controller's {@link DesiredStates}. See
 * {@link OwnedObjects} for the contract; the decision of {@link #apply} in order:
 * <ol>
 *   <li>the desired body — what the client's apply would send, with the owner's namespace and a
 *       controller reference — and its hash (keys sorted, so the hash does not depend on field
 *       order), recorded in the body as {@link OwnedObjects#DESIRED_HASH_ANNOTATION};</li>
 *   <li>the cached object: absent → apply; controlled by another owner → refuse; the controller's
 *       {@link LastApplied} entry for it covers this hash at the cached resourceVersion → nothing;
 *       the object carries the same hash and {@link JsonSubset#covers covers} the body → nothing
 *       (and remembered so); otherwise apply, and remember the answer's resourceVersion.</li>
 * </ol>
 *
 * <p>Not thread-safe: one instance per reconcile.
 */
final class DefaultOwnedObjects implements OwnedObjects {

    private final Object owner;
    private final Client client;
    private final Scheme scheme;
    private final String fieldManager;
    private final OwnedKinds ownedKinds;
    private final LastApplied lastApplied;
    private final String ownerUid;

    DefaultOwnedObjects(
            Object owner,
            Client client,
            Scheme scheme,
            String fieldManager,
            OwnedKinds ownedKinds,
            LastApplied lastApplied) {
        this.owner = owner;
        this.client = client;
        this.scheme = scheme;
        this.fieldManager = fieldManager;
        this.ownedKinds = ownedKinds;
        this.lastApplied = lastApplied;
        this.ownerUid = OwnerReferences.controllerReference(owner, scheme).uid(); // fails early without a uid
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Applied<T> apply(T desired) {
        Objects.requireNonNull(desired, "desired");
        ObjectNode body = body(desired);
        String hash = hash(body);
        ((ObjectNode) body.get("metadata")).withObject("annotations").put(DESIRED_HASH_ANNOTATION, hash);

        GroupVersionKind gvk = GroupVersionKind.of(
                body.path("apiVersion").asString(""), body.path("kind").asString(""));
        ObjectKey key = ObjectKey.of(
                body.path("metadata").path("namespace").asString(""),
                body.path("metadata").path("name").asString(""));
        LastApplied.ObjectId id = new LastApplied.ObjectId(gvk.group(), gvk.kind(), key.namespace(), key.name());
        boolean dynamic = desired instanceof DynamicObject;
        Class<T> type = (Class<T>) desired.getClass();
        if (dynamic) {
            ownedKinds.watch(gvk);
        } else {
            ownedKinds.watch(type);
        }

        Optional<T> cached = dynamic ? (Optional<T>) client.getOptional(gvk, key) : client.getOptional(type, key);
        String basedOn = null;
        if (cached.isPresent()) {
            T current = cached.get();
            Optional<OwnerReference> controller = OwnerReferences.controllerOf(current);
            if (controller.isPresent() && !ownerUid.equals(controller.get().uid())) {
                throw new AlreadyOwnedException(key, controller.get());
            }
            basedOn = ObjectAccess.resourceVersion(current);
            final String version = basedOn;
            if (lastApplied.get(id).map(e -> e.covers(hash, version)).orElse(false)) {
                return new Applied<>(current, Applied.Outcome.UNCHANGED);
            }
            JsonNode actual = tree(current);
            if (hash.equals(actual.path("metadata")
                            .path("annotations")
                            .path(DESIRED_HASH_ANNOTATION)
                            .asString(null))
                    && inSync(body, actual)) {
                lastApplied.put(id, new LastApplied.Entry(hash, version, version));
                return new Applied<>(current, Applied.Outcome.UNCHANGED);
            }
        }
        T toSend = dynamic ? (T) DynamicObject.wrap(body) : KubeJson.mapper().treeToValue(body, type);
        T written = client.apply(toSend, PatchOptions.forceApply(fieldManager));
        lastApplied.put(id, new LastApplied.Entry(hash, ObjectAccess.resourceVersion(written), basedOn));
        return new Applied<>(written, cached.isPresent() ? Applied.Outcome.UPDATED : Applied.Outcome.CREATED);
    }

    @Override
    public boolean delete(Class<?> type, String name) {
        Objects.requireNonNull(type, "type");
        ownedKinds.watch(type);
        return delete(client.getOptional(type, ObjectKey.of(ObjectAccess.namespace(owner), name)));
    }

    @Override
    public boolean delete(GroupVersionKind kind, String name) {
        Objects.requireNonNull(kind, "kind");
        ownedKinds.watch(kind);
        return delete(client.getOptional(kind, ObjectKey.of(ObjectAccess.namespace(owner), name)));
    }

    private boolean delete(Optional<?> cached) {
        if (cached.isEmpty()) {
            return false;
        }
        Object current = cached.get();
        Optional<OwnerReference> controller = OwnerReferences.controllerOf(current);
        if (controller.isEmpty() || !ownerUid.equals(controller.get().uid())) {
            return false; // not ours to delete
        }
        try {
            client.delete(current);
        } catch (NotFoundException gone) {
            return false;
        }
        GroupVersionKind gvk = current instanceof DynamicObject d
                ? GroupVersionKind.of(d.apiVersion(), d.kind())
                : scheme.gvkOf(current.getClass()).orElseThrow();
        lastApplied.forget(new LastApplied.ObjectId(
                gvk.group(), gvk.kind(), ObjectAccess.namespace(current), ObjectAccess.name(current)));
        return true;
    }

    /**
     * What the apply sends: the client's apply body of {@code desired} in the owner's namespace when
     * it has none, with the controller reference to the owner, without a resourceVersion (an object
     * read and changed is applied as a whole, not as a write over the version read).
     */
    private ObjectNode body(Object desired) {
        ObjectNode body = ApplyBodies.treeForObject(desired, scheme);
        if (!body.hasNonNull("apiVersion") || !body.hasNonNull("kind")) {
            throw new IllegalArgumentException(desired.getClass().getName()
                    + " is not a Kubernetes kind of the scheme: register it in the Scheme or annotate it with @Kind");
        }
        ObjectNode metadata = body.withObject("metadata");
        metadata.remove("resourceVersion"); // a desired state is no write of one version: no precondition
        String name = metadata.path("name").asString("");
        if (name.isEmpty()) {
            throw new IllegalArgumentException(
                    "an owned " + body.get("kind").asString() + " needs a metadata.name to be applied");
        }
        String ownerNamespace = ObjectAccess.namespace(owner);
        if (metadata.path("namespace").asString("").isEmpty() && !ownerNamespace.isEmpty()) {
            metadata.put("namespace", ownerNamespace);
        }
        DynamicObject owned = OwnerReferences.setControllerReference(owner, DynamicObject.wrap(body), scheme);
        return owned.node();
    }

    /** The object's JSON, without changing it. */
    private static JsonNode tree(Object object) {
        return object instanceof DynamicObject d ? d.node() : KubeJson.mapper().valueToTree(object);
    }

    /**
     * Whether {@code actual} has what {@code body} sets, apiVersion and kind aside (typed objects
     * from a cache may lack them). A Secret's {@code stringData} is compared as the {@code data} the
     * server turns it into.
     */
    static boolean inSync(ObjectNode body, JsonNode actual) {
        ObjectNode desired = body.deepCopy();
        desired.remove(List.of("apiVersion", "kind"));
        if ("Secret".equals(body.path("kind").asString())
                && "v1".equals(body.path("apiVersion").asString())) {
            stringDataAsData(desired);
        }
        return JsonSubset.covers(desired, actual);
    }

    private static void stringDataAsData(ObjectNode secret) {
        JsonNode stringData = secret.remove("stringData");
        if (!(stringData instanceof ObjectNode strings)) {
            return;
        }
        ObjectNode data = secret.withObject("data");
        for (Map.Entry<String, JsonNode> e : strings.properties()) {
            data.put(
                    e.getKey(),
                    Base64.getEncoder().encodeToString(e.getValue().asString("").getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** The hash of a JSON tree, independent of the order of object members: 128 bits of SHA-256, hex. */
    static String hash(JsonNode tree) {
        StringBuilder canonical = new StringBuilder();
        writeSorted(tree, canonical);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    private static void writeSorted(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.propertyNames());
            names.sort(null);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(KubeJson.mapper().writeValueAsString(names.get(i))).append(':');
                writeSorted(node.get(names.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                writeSorted(node.get(i), out);
            }
            out.append(']');
        } else {
            out.append(node.toString());
        }
    }
}
