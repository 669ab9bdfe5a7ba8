package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ControllerRevisions a StatefulSet (or DaemonSet) keeps of its Pod templates, as kube-controller-manager's
 * history does: one per template, named {@code <owner>-<hash>}, labelled with the owner's selector labels and
 * {@code controller.kubernetes.io/hash}, controlled by the owner, with {@code data} holding the template (the
 * patch that restores it) and {@code revision} one above the highest so far; a template that comes back gets
 * its old revision re-numbered as the newest. Those beyond the history limit that no Pod uses are deleted.
 * {@code kubectl rollout history} and {@code undo} read them.
 *
 * <p><b>Thread safety.</b> Thread-safe (each call reads storage afresh).
 */
final class ControllerRevisions {

    static final String HASH_LABEL = "controller.kubernetes.io/hash";

    /** The revision of the owner's current template. */
    record Current(String name, long revision) {}

    private final ObjectRegistry registry;
    private final ResourceDefinition revisions;

    ControllerRevisions(ObjectRegistry registry, ResourceDefinition revisions) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.revisions = Objects.requireNonNull(revisions, "revisions");
    }

    /** The owner's revisions, oldest revision first. */
    List<JsonNode> of(JsonNode owner) {
        String uid = owner.path("metadata").path("uid").asString();
        List<JsonNode> out = new ArrayList<>();
        for (StoredObject r : WorkloadObjects.list(
                registry, revisions, owner.path("metadata").path("namespace").asString())) {
            if (WorkloadObjects.controlledBy(r.object(), uid)) {
                out.add(r.object());
            }
        }
        out.sort(Comparator.comparingLong(r -> r.path("revision").asLong(0)));
        return out;
    }

    /** Makes sure a revision of the owner's current template exists and is the newest; returns it. */
    Current ensure(JsonNode owner, String apiVersion, String kind) {
        String namespace = owner.path("metadata").path("namespace").asString();
        JsonNode template = owner.path("spec").path("template");
        String hash = TemplateHash.of(template, WorkloadObjects.intField(owner.path("status"), "collisionCount", 0));
        String name = owner.path("metadata").path("name").asString() + "-" + hash;
        List<JsonNode> existing = of(owner);
        long max = existing.isEmpty() ? 0 : existing.getLast().path("revision").asLong(0);
        for (JsonNode r : existing) {
            if (r.path("metadata").path("name").asString("").equals(name)) {
                long revision = r.path("revision").asLong(0);
                if (revision < max) {
                    ObjectNode next = WorkloadObjects.copy(r);
                    next.put("revision", max + 1);
                    registry.update(
                            revisions, namespace, name, "", next, WorkloadObjects.context("kube-controller-manager"));
                    return new Current(name, max + 1);
                }
                return new Current(name, revision);
            }
        }
        ObjectNode cr = KubeJson.mapper().createObjectNode();
        cr.put("apiVersion", "apps/v1").put("kind", "ControllerRevision");
        ObjectNode meta = cr.putObject("metadata");
        meta.put("name", name).put("namespace", namespace);
        ObjectNode labels =
                owner.path("spec").path("selector").path("matchLabels").isObject()
                        ? WorkloadObjects.copy(
                                owner.path("spec").path("selector").path("matchLabels"))
                        : meta.objectNode();
        labels.put(HASH_LABEL, hash);
        meta.set("labels", labels);
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference(apiVersion, kind, owner));
        ObjectNode templatePatch = cr.putObject("data").putObject("spec").putObject("template");
        templatePatch.put("$patch", "replace");
        template.properties()
                .forEach(e -> templatePatch.set(e.getKey(), e.getValue().deepCopy()));
        cr.put("revision", max + 1);
        try {
            registry.create(revisions, namespace, cr, WorkloadObjects.context("kube-controller-manager"));
        } catch (AlreadyExistsException e) {
            // a collision with another owner's revision of the same name: the next sync sees it
            throw new ConflictException(Status.failure(409, "Conflict", "controllerrevision " + name + " exists"));
        }
        return new Current(name, max + 1);
    }

    /** Deletes the oldest revisions beyond {@code limit} whose names are not in {@code inUse}. */
    void prune(JsonNode owner, int limit, Set<String> inUse) {
        List<JsonNode> idle = new ArrayList<>(of(owner).stream()
                .filter(r -> !inUse.contains(r.path("metadata").path("name").asString("")))
                .toList());
        int surplus = idle.size() - limit;
        for (int i = 0; i < surplus; i++) {
            try {
                registry.delete(
                        revisions,
                        owner.path("metadata").path("namespace").asString(),
                        idle.get(i).path("metadata").path("name").asString(),
                        DeleteParams.none(),
                        WorkloadObjects.context("kube-controller-manager"));
            } catch (NotFoundException | ConflictException e) {
                // gone meanwhile
            }
        }
    }
}
