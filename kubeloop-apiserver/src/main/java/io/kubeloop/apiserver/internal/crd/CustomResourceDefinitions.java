package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.admission.ServiceEndpoints;
import io.kubeloop.apiserver.internal.admission.WebhookClient;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.apiserver.internal.storage.WatchItem;
import io.kubeloop.apiserver.internal.storage.WatchRequest;
import io.kubeloop.apiserver.internal.storage.Watcher;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The CustomResourceDefinition controllers of the embedded server (apiextensions' naming,
 * establishing, discovery and finalizer controllers in one): it watches the
 * {@code customresourcedefinitions} storage and, per CRD,
 * <ol>
 *   <li>decides the accepted names ({@link CrdNaming}) and sets {@code status.acceptedNames} with the
 *       conditions {@code NamesAccepted} ({@code NoConflicts}, or e.g. {@code ListKindConflict}) and
 *       {@code Established} ({@code InitialNamesAccepted}) through the status subresource, so watchers
 *       ({@code kubectl wait --for condition=established}) see it, and for a group of the Kubernetes
 *       project the {@code KubernetesAPIApprovalPolicyConformant} condition ({@link ApiApproval});</li>
 *   <li>serves it: {@link ResourceRegistry#replace} with one {@link ResourceDefinition} per served
 *       version, <em>before</em> the Established condition is written, so a client that saw it can
 *       create objects at once;</li>
 *   <li>on deletion (the registry added the {@code customresourcecleanup.apiextensions.k8s.io}
 *       finalizer): condition {@code Terminating} ({@code InstanceDeletionPending}, then
 *       {@code InstanceDeletionInProgress}), definitions marked terminating (no create; discovery verbs
 *       shrink), every custom resource deleted (their finalizers honoured: it waits for them), then
 *       the finalizer removed; once the CRD is gone its endpoints answer 404 and open watches of its
 *       resources end.</li>
 * </ol>
 *
 * <p>{@link #start} reconciles every stored CRD before it returns, so after a restart (with a data
 * directory) the custom resources are served before the server accepts requests.
 *
 * <p><b>Threads.</b> One virtual thread ({@code crd-controller}) reconciles CRDs one at a time from a
 * store watch (it re-lists if the watch ends); one virtual thread per terminating CRD deletes its
 * objects, woken by a watch on their storage. Writes go through {@link ObjectRegistry} like any client's;
 * a conflicting status write is dropped because the write that caused it brings another event.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops both kinds of threads.
 */
public final class CustomResourceDefinitions implements AutoCloseable {

    /** The API group of CustomResourceDefinitions. */
    public static final String GROUP = "apiextensions.k8s.io";
    /** Their resource name. */
    public static final String PLURAL = "customresourcedefinitions";

    private static final Logger LOG = LoggerFactory.getLogger(CustomResourceDefinitions.class);
    private static final Duration RECHECK = Duration.ofSeconds(1);

    /** What is served for one CRD, to skip replacing identical definitions (which would change ETags). */
    private record Served(CrdSpec spec, CrdSpec.Names names, boolean terminating) {}

    private final ObjectRegistry registry;
    private final ResourceRegistry resources;
    private final VersionedStore store;
    private final Ticker clock;
    private final WebhookClient webhooks;
    private final CompiledSchemas schemas;
    private final ResourceDefinition crdDefinition;
    private final String crdStorage;
    /** CRD name -> what is served; written by the reconciling thread only. */
    private final Map<String, Served> served = new ConcurrentHashMap<>();
    /** CRDs whose objects are being deleted. */
    private final Set<String> cleaning = ConcurrentHashMap.newKeySet();

    private final Set<Thread> cleaners = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile Watcher watcher;
    private Thread loop;

    private CustomResourceDefinitions(ObjectRegistry registry, Ticker clock, CompiledSchemas schemas) {
        this.schemas = schemas;
        this.registry = registry;
        this.resources = registry.resources();
        this.store = registry.store();
        this.webhooks = new WebhookClient(new ServiceEndpoints(store));
        this.clock = clock;
        this.crdDefinition = resources
                .find(GROUP, "v1", PLURAL)
                .orElseThrow(() -> new IllegalStateException("customresourcedefinitions are not served"));
        this.crdStorage = crdDefinition.storageId();
    }

    /**
     * Reconciles every stored CRD (serving the established ones), then keeps watching for changes.
     *
     * @param registry the resource layer whose {@link ResourceRegistry} gets the custom resources
     * @param clock for condition transition times and Table ages
     */
    public static CustomResourceDefinitions start(ObjectRegistry registry, Ticker clock) {
        return start(registry, clock, new CompiledSchemas(CompiledSchemas.DEFAULT_CAPACITY));
    }

    /**
     * As {@link #start(ObjectRegistry, Ticker)}, compiling the schemas of served versions through
     * {@code schemas}: share it with the registry's {@link CustomResourceValidator}, and a CRD's rules,
     * compiled when it was validated, are not compiled again to serve it.
     */
    public static CustomResourceDefinitions start(ObjectRegistry registry, Ticker clock, CompiledSchemas schemas) {
        CustomResourceDefinitions c = new CustomResourceDefinitions(registry, clock, schemas);
        long revision = c.syncAll();
        c.watcher = c.store.watch(new WatchRequest(c.crdStorage, null, o -> true, revision, false, false));
        c.loop = Thread.ofVirtual().name("crd-controller").start(c::run);
        return c;
    }

    private void run() {
        while (!closed) {
            Optional<WatchItem> item = watcher.next(Duration.ofSeconds(30));
            if (item.isEmpty()) {
                continue;
            }
            switch (item.get()) {
                case WatchItem.Event e -> reconcileQuietly(e.object().name());
                case WatchItem.Bookmark b -> {}
                case WatchItem.Closed c -> {
                    if (closed) {
                        return;
                    }
                    long revision = syncAll();
                    watcher = store.watch(new WatchRequest(crdStorage, null, o -> true, revision, false, false));
                }
            }
        }
    }

    /** Reconciles every stored CRD and every served one; returns the revision of the listing. */
    private long syncAll() {
        ListPage page = store.list(ListQuery.all(crdStorage, null));
        Set<String> names = new HashSet<>(served.keySet());
        page.items().forEach(o -> names.add(o.name()));
        names.forEach(this::reconcileQuietly);
        return page.resourceVersion();
    }

    private void reconcileQuietly(String name) {
        try {
            reconcile(name);
        } catch (RuntimeException e) {
            LOG.warn("reconciling customresourcedefinition {} failed", name, e);
        }
    }

    private void reconcile(String name) {
        Optional<StoredObject> stored = store.get(crdStorage, name);
        if (stored.isEmpty()) {
            unserve(name);
            return;
        }
        ObjectNode crd = stored.get().object();
        CrdSpec spec = CrdSpec.of(crd);
        if (spec.storageVersion().isEmpty()) {
            return; // validation never lets this in
        }
        if (crd.path("metadata").has("deletionTimestamp")) {
            terminate(stored.get(), spec);
            return;
        }
        CrdSpec.Names previous = CrdSpec.Names.of(crd.path("status").path("acceptedNames"));
        CrdNaming.Result naming = CrdNaming.calculate(spec.names(), previous, otherAcceptedNames(spec), builtins(spec));
        ObjectNode status = statusCopy(crd);
        naming.names().writeTo(status.putObject("acceptedNames"));
        Conditions.set(
                status,
                Conditions.NAMES_ACCEPTED,
                naming.accepted(),
                naming.reason(),
                naming.message(),
                clock.instant());
        boolean established = naming.accepted() || Conditions.isTrue(crd, Conditions.ESTABLISHED);
        if (established) {
            serve(spec, naming.names(), false);
            Conditions.set(
                    status,
                    Conditions.ESTABLISHED,
                    true,
                    "InitialNamesAccepted",
                    "the initial names have been accepted",
                    clock.instant());
        } else {
            Conditions.set(
                    status,
                    Conditions.ESTABLISHED,
                    false,
                    "NotAccepted",
                    "not all names are accepted",
                    clock.instant());
        }
        ApiApproval.condition(crd)
                .ifPresent(c -> Conditions.set(
                        status, ApiApproval.CONDITION, c.status(), c.reason(), c.message(), clock.instant()));
        writeStatus(stored.get(), status);
    }

    private List<CrdSpec.Names> otherAcceptedNames(CrdSpec spec) {
        List<CrdSpec.Names> out = new ArrayList<>();
        for (StoredObject o : store.list(ListQuery.all(crdStorage, null)).items()) {
            if (!o.name().equals(spec.name())
                    && spec.group().equals(o.object().path("spec").path("group").asString(""))) {
                out.add(CrdSpec.Names.of(o.object().path("status").path("acceptedNames")));
            }
        }
        return out;
    }

    private List<ResourceDefinition> builtins(CrdSpec spec) {
        return resources.all().stream()
                .filter(d -> !d.custom() && d.group().equals(spec.group()))
                .toList();
    }

    private static ObjectNode statusCopy(ObjectNode crd) {
        return crd.get("status") instanceof ObjectNode s
                ? s.deepCopy()
                : KubeJson.mapper().createObjectNode();
    }

    private void serve(CrdSpec spec, CrdSpec.Names names, boolean terminating) {
        if (names.plural().isEmpty() || names.kind().isEmpty()) {
            return;
        }
        Served next = new Served(spec, names, terminating);
        Served before = served.get(spec.name());
        if (next.equals(before)) {
            return;
        }
        if (before != null && !before.names().plural().equals(names.plural())) {
            resources.remove(spec.group(), before.names().plural());
        }
        resources.replace(
                spec.group(),
                names.plural(),
                CrdDefinitions.of(spec, names, true, terminating, clock, webhooks, schemas));
        served.put(spec.name(), next);
    }

    private void unserve(String name) {
        Served s = served.remove(name);
        if (s != null) {
            resources.remove(s.spec().group(), s.names().plural());
            store.closeWatchers(s.spec().group() + "/" + s.names().plural());
        }
    }

    private WriteContext context() {
        return new WriteContext("apiextensions-apiserver", null, false, FieldValidation.IGNORE, false);
    }

    /**
     * Writes {@code status} unless unchanged; a conflict or a vanished CRD is left to the next event. A
     * validator that normalizes the written status cannot cause a write loop: the registry stores nothing
     * (and sends no event) when the normalized object equals the stored one.
     */
    private void writeStatus(StoredObject current, ObjectNode status) {
        if (status.equals(current.object().get("status"))) {
            return;
        }
        // the registry copies the body before changing it; its root and metadata are our own for its checks
        ObjectNode stored = current.object();
        ObjectNode body = KubeJson.mapper().createObjectNode();
        body.setAll(stored);
        if (stored.get("metadata") instanceof ObjectNode meta) {
            body.set("metadata", meta.deepCopy());
        }
        body.set("status", status);
        try {
            registry.update(crdDefinition, "", current.name(), "status", body, context());
        } catch (ConflictException | NotFoundException e) {
            // a newer version exists: its event reconciles again
        }
    }

    // ---- deletion ----

    private void terminate(StoredObject current, CrdSpec spec) {
        ObjectNode crd = current.object();
        CrdSpec.Names accepted = CrdSpec.Names.of(crd.path("status").path("acceptedNames"));
        if (served.containsKey(spec.name()) || Conditions.isTrue(crd, Conditions.ESTABLISHED)) {
            serve(spec, accepted, true);
        }
        if (!Conditions.isTrue(crd, Conditions.TERMINATING)) {
            ObjectNode status = statusCopy(crd);
            Conditions.set(
                    status,
                    Conditions.TERMINATING,
                    true,
                    "InstanceDeletionPending",
                    "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
                    clock.instant());
            writeStatus(current, status);
        }
        String name = spec.name();
        if (!closed && cleaning.add(name)) {
            Thread t = Thread.ofVirtual().name("crd-finalizer-" + name).unstarted(() -> {
                try {
                    deleteInstances(name);
                } catch (RuntimeException e) {
                    LOG.warn("deleting the objects of customresourcedefinition {} failed", name, e);
                } finally {
                    cleaning.remove(name);
                    cleaners.remove(Thread.currentThread());
                }
            });
            cleaners.add(t);
            t.start();
        }
    }

    private void deleteInstances(String name) {
        updateStatus(
                name,
                s -> Conditions.set(
                        s,
                        Conditions.TERMINATING,
                        true,
                        "InstanceDeletionInProgress",
                        "CustomResource deletion is in progress",
                        clock.instant()));
        Optional<StoredObject> stored = store.get(crdStorage, name);
        if (stored.isEmpty()) {
            return;
        }
        CrdSpec spec = CrdSpec.of(stored.get().object());
        CrdSpec.Names accepted =
                CrdSpec.Names.of(stored.get().object().path("status").path("acceptedNames"));
        if (!accepted.plural().isEmpty() && !accepted.kind().isEmpty()) {
            ResourceDefinition def = CrdDefinitions.of(spec, accepted, false, true, clock, webhooks, schemas).stream()
                    .filter(d -> d.version().equals(d.storageVersion()))
                    .findFirst()
                    .orElseThrow();
            if (!deleteAll(def)) {
                return; // closed meanwhile
            }
        }
        updateStatus(
                name,
                s -> Conditions.set(
                        s,
                        Conditions.TERMINATING,
                        false,
                        "InstanceDeletionCompleted",
                        "removed all instances",
                        clock.instant()));
        removeFinalizer(name);
    }

    /** Deletes every object of {@code def} and waits until none is left; false when closed first. */
    private boolean deleteAll(ResourceDefinition def) {
        Watcher changes = null;
        try {
            while (!closed) {
                if (changes == null) {
                    changes = store.watch(
                            new WatchRequest(def.storageId(), null, o -> true, store.currentRevision(), false, false));
                }
                List<StoredObject> items =
                        store.list(ListQuery.all(def.storageId(), null)).items();
                if (items.isEmpty()) {
                    return true;
                }
                for (StoredObject o : items) {
                    if (!o.object().path("metadata").has("deletionTimestamp")) {
                        try {
                            registry.delete(def, o.namespace(), o.name(), DeleteParams.none(), context());
                        } catch (NotFoundException e) {
                            // gone meanwhile
                        }
                    }
                }
                Optional<WatchItem> change = changes.next(RECHECK);
                if (change.isPresent() && change.get() instanceof WatchItem.Closed) {
                    changes = null; // overflowed: watch again
                }
            }
            return false;
        } finally {
            if (changes != null) {
                changes.close();
            }
        }
    }

    private void updateStatus(String name, Consumer<ObjectNode> change) {
        for (int attempt = 0; attempt < 10 && !closed; attempt++) {
            Optional<StoredObject> current = store.get(crdStorage, name);
            if (current.isEmpty()) {
                return;
            }
            ObjectNode status = statusCopy(current.get().object());
            change.accept(status);
            if (status.equals(current.get().object().get("status"))) {
                return;
            }
            ObjectNode body = current.get().object().deepCopy();
            body.set("status", status);
            try {
                registry.update(crdDefinition, "", name, "status", body, context());
                return;
            } catch (ConflictException e) {
                // re-read and retry
            } catch (NotFoundException e) {
                return;
            }
        }
    }

    private void removeFinalizer(String name) {
        for (int attempt = 0; attempt < 10 && !closed; attempt++) {
            Optional<StoredObject> current = store.get(crdStorage, name);
            if (current.isEmpty()) {
                return;
            }
            ObjectNode body = current.get().object().deepCopy();
            if (!(body.path("metadata").get("finalizers") instanceof ArrayNode finalizers)) {
                return;
            }
            ArrayNode kept = finalizers.arrayNode();
            finalizers.forEach(f -> {
                if (!f.asString().equals(ObjectRegistry.CRD_CLEANUP_FINALIZER)) {
                    kept.add(f);
                }
            });
            if (kept.size() == finalizers.size()) {
                return;
            }
            ((ObjectNode) body.get("metadata")).set("finalizers", kept);
            try {
                registry.update(crdDefinition, "", name, "", body, context());
                return;
            } catch (ConflictException e) {
                // re-read and retry
            } catch (NotFoundException e) {
                return;
            }
        }
    }

    /** Stops watching and deleting; what is served stays served. */
    @Override
    public void close() {
        closed = true;
        Watcher w = watcher;
        if (w != null) {
            w.close();
        }
        List<Thread> threads = new ArrayList<>(cleaners);
        if (loop != null) {
            threads.add(loop);
        }
        for (Thread t : threads) {
            try {
                t.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
