package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The persistent-volume binder with a simulated dynamic provisioner: the simulated cluster has a default
 * StorageClass {@value #DEFAULT_CLASS} (provisioner {@value #PROVISIONER}, reclaim policy {@code Delete}, binding
 * {@code Immediate}). A PersistentVolumeClaim without a class gets the default one (the retroactive default
 * class assignment); a Pending claim of a class this provisioner serves gets a PersistentVolume
 * {@code pvc-<claim uid>} of the requested size and access modes, bound to it both ways (the claim's
 * {@code spec.volumeName}, the volume's {@code claimRef}, both {@code Bound}, with kube-controller-manager's
 * binding annotations). When a claim goes, its volume is deleted ({@code Delete}) or marked {@code Released}
 * ({@code Retain}).
 *
 * <p>Driven by the claim metadata informer; one worker handles one claim at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class VolumeProvisioner implements AutoCloseable {

    static final String DEFAULT_CLASS = "standard";
    static final String PROVISIONER = "kubeloop.io/simulated";
    private static final String MANAGER = "kube-controller-manager";

    /** A claim (its uid, to find its volume once it is gone). */
    private record Key(String namespace, String name, String uid) {}

    private final ObjectRegistry registry;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition claims;
    private volatile ResourceDefinition volumes;
    private volatile ResourceDefinition classes;

    VolumeProvisioner(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.worker = new QueueWorker<>("persistentvolume_binder", Objects.requireNonNull(clock, "clock"), this::sync);
        informers.subscribe(this::monitor);
    }

    /** Registers the default StorageClass unless one of that name is stored. */
    static void registerDefaultClass(ObjectRegistry registry) {
        ResourceDefinition def = registry.resources()
                .find("storage.k8s.io", "v1", "storageclasses")
                .orElseThrow();
        if (WorkloadObjects.get(registry, def, "", DEFAULT_CLASS).isPresent()) {
            return;
        }
        ObjectNode sc = KubeJson.mapper().createObjectNode();
        sc.put("apiVersion", "storage.k8s.io/v1").put("kind", "StorageClass");
        sc.putObject("metadata")
                .put("name", DEFAULT_CLASS)
                .putObject("annotations")
                .put("storageclass.kubernetes.io/is-default-class", "true");
        sc.put("provisioner", PROVISIONER);
        sc.put("reclaimPolicy", "Delete");
        sc.put("volumeBindingMode", "Immediate");
        try {
            registry.create(def, "", sc, WorkloadObjects.context("kubeloop"));
        } catch (AlreadyExistsException e) {
            // made meanwhile
        }
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("storage.k8s.io") && def.plural().equals("storageclasses")) {
            classes = def;
        } else if (def.group().isEmpty() && def.plural().equals("persistentvolumes")) {
            volumes = def;
        } else if (def.group().isEmpty() && def.plural().equals("persistentvolumeclaims")) {
            claims = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata c, boolean isInInitialList) {
                    enqueue(c);
                }

                @Override
                public void onUpdate(ObjectMetadata oldC, ObjectMetadata newC) {
                    enqueue(newC);
                }

                @Override
                public void onDelete(ObjectMetadata c, boolean finalStateUnknown) {
                    enqueue(c);
                }
            });
        }
    }

    private void enqueue(ObjectMetadata claim) {
        worker.queue()
                .add(new Key(claim.metadata().namespace(), claim.metadata().name(), claim.uid()));
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (claims == null || volumes == null || classes == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> claim = WorkloadObjects.get(registry, claims, key.namespace(), key.name())
                    .filter(c ->
                            c.object().path("metadata").path("uid").asString("").equals(key.uid()));
            if (claim.isEmpty()) {
                release(key);
            } else if (!WorkloadObjects.deleting(claim.get().object())) {
                bind(key, claim.get().object());
            }
        });
    }

    private void bind(Key key, JsonNode claim) {
        if (claim.path("status").path("phase").asString("").equals("Bound")) {
            return;
        }
        JsonNode className = claim.path("spec").path("storageClassName");
        if (className.isMissingNode() || className.isNull()) {
            Optional<JsonNode> fallback = defaultClass();
            if (fallback.isPresent()) {
                ObjectNode next = WorkloadObjects.copy(claim);
                ((ObjectNode) next.get("spec"))
                        .put(
                                "storageClassName",
                                fallback.get().path("metadata").path("name").asString());
                registry.update(claims, key.namespace(), key.name(), "", next, WorkloadObjects.context(MANAGER));
            }
            return;
        }
        Optional<StoredObject> storageClass = WorkloadObjects.get(registry, classes, "", className.asString(""));
        if (storageClass.isEmpty()
                || !storageClass.get().object().path("provisioner").asString("").equals(PROVISIONER)) {
            return; // not ours to provision: it stays Pending, as without a provisioner
        }
        String volumeName = "pvc-" + key.uid();
        String size = claim.path("spec")
                .path("resources")
                .path("requests")
                .path("storage")
                .asString("1Gi");
        if (WorkloadObjects.get(registry, volumes, "", volumeName).isEmpty()) {
            ObjectNode pv = KubeJson.mapper().createObjectNode();
            pv.put("apiVersion", "v1").put("kind", "PersistentVolume");
            pv.putObject("metadata")
                    .put("name", volumeName)
                    .putObject("annotations")
                    .put("pv.kubernetes.io/provisioned-by", PROVISIONER);
            ObjectNode spec = pv.putObject("spec");
            spec.putObject("capacity").put("storage", size);
            spec.set("accessModes", claim.path("spec").path("accessModes").deepCopy());
            spec.put(
                    "persistentVolumeReclaimPolicy",
                    storageClass.get().object().path("reclaimPolicy").asString("Delete"));
            spec.put("storageClassName", className.asString());
            spec.put("volumeMode", claim.path("spec").path("volumeMode").asString("Filesystem"));
            spec.putObject("hostPath")
                    .put("path", "/var/local-path-provisioner/" + volumeName)
                    .put("type", "DirectoryOrCreate");
            spec.putObject("claimRef")
                    .put("apiVersion", "v1")
                    .put("kind", "PersistentVolumeClaim")
                    .put("namespace", key.namespace())
                    .put("name", key.name())
                    .put("uid", key.uid());
            StoredObject created = registry.create(volumes, "", pv, WorkloadObjects.context(MANAGER))
                    .object();
            ObjectNode bound = WorkloadObjects.copy(created.object());
            bound.putObject("status").put("phase", "Bound");
            registry.update(volumes, "", volumeName, "status", bound, WorkloadObjects.context(MANAGER));
        }
        ObjectNode next = WorkloadObjects.copy(claim);
        ((ObjectNode) next.get("spec")).put("volumeName", volumeName);
        ObjectNode meta = (ObjectNode) next.get("metadata");
        ObjectNode annotations = meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
        annotations.put("pv.kubernetes.io/bind-completed", "yes");
        annotations.put("pv.kubernetes.io/bound-by-controller", "yes");
        annotations.put("volume.beta.kubernetes.io/storage-provisioner", PROVISIONER);
        annotations.put("volume.kubernetes.io/storage-provisioner", PROVISIONER);
        StoredObject written = registry.update(
                        claims, key.namespace(), key.name(), "", next, WorkloadObjects.context(MANAGER))
                .object();
        ObjectNode withStatus = WorkloadObjects.copy(written.object());
        ObjectNode status = withStatus.putObject("status");
        status.put("phase", "Bound");
        status.set("accessModes", claim.path("spec").path("accessModes").deepCopy());
        status.putObject("capacity").put("storage", size);
        registry.update(claims, key.namespace(), key.name(), "status", withStatus, WorkloadObjects.context(MANAGER));
    }

    private Optional<JsonNode> defaultClass() {
        return WorkloadObjects.list(registry, classes, null).stream()
                .map(StoredObject::object)
                .filter(c -> c.path("metadata")
                        .path("annotations")
                        .path("storageclass.kubernetes.io/is-default-class")
                        .asString("")
                        .equals("true"))
                .map(c -> (JsonNode) c)
                .findFirst();
    }

    /** The claim is gone: its volume is deleted, or released when its policy retains it. */
    private void release(Key key) {
        Optional<StoredObject> volume = WorkloadObjects.get(registry, volumes, "", "pvc-" + key.uid());
        if (volume.isEmpty()) {
            return;
        }
        JsonNode pv = volume.get().object();
        if (pv.path("spec").path("persistentVolumeReclaimPolicy").asString("").equals("Delete")) {
            registry.delete(
                    volumes,
                    "",
                    pv.path("metadata").path("name").asString(),
                    DeleteParams.none(),
                    WorkloadObjects.context(MANAGER));
        } else if (!pv.path("status").path("phase").asString("").equals("Released")) {
            ObjectNode next = WorkloadObjects.copy(pv);
            next.putObject("status").put("phase", "Released");
            registry.update(
                    volumes,
                    "",
                    pv.path("metadata").path("name").asString(),
                    "status",
                    next,
                    WorkloadObjects.context(MANAGER));
        }
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
