package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.errors.MethodNotAllowedException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.selector.FieldRequirement;
import io.kubeloop.api.selector.FieldSelector;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.api.selector.SelectorParseException;
import io.kubeloop.apiserver.internal.builtin.ServiceAddresses;
import io.kubeloop.apiserver.internal.storage.Change;
import io.kubeloop.apiserver.internal.storage.ContinueToken;
import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.apiserver.internal.storage.WatchRequest;
import io.kubeloop.apiserver.internal.storage.Watcher;
import io.kubeloop.apiserver.internal.storage.WriteResult;
import io.kubeloop.client.PatchType;
import io.kubeloop.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The resource layer: Kubernetes semantics of get, list, watch, create, update, patch, delete and
 * deletecollection over the {@link VersionedStore}. Every failure is an
 * {@link ApiException} carrying the exact Status.
 *
 * <p>Seams: {@link ObjectValidator} (schema validation / pruning / defaulting) and {@link PatchApplier}
 * (patch types) are injected.
 *
 * <p><b>Thread safety.</b> Thread-safe; each write is one atomic {@link VersionedStore#write}.
 */
public final class ObjectRegistry {

    /** The finalizer a CustomResourceDefinition gets on its first DELETE (its custom resources go first). */
    public static final String CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

    /** Namespaces that cannot be deleted. */
    public static final Set<String> PROTECTED_NAMESPACES = Set.of("default", "kube-system", "kube-public");

    private final VersionedStore store;
    private final ResourceRegistry resources;
    private final Ticker clock;
    private final ObjectValidator validator;
    private final ServiceAddresses services;
    private final PatchApplier patcher;
    private final NamespaceLifecycle namespaces;
    /** A LIST at resourceVersion "0" is answered whole, ignoring limit (kube-apiserver's watch cache). */
    private final boolean listZeroFromCache;

    /** A registry over {@code store} serving {@code resources}; lists at resourceVersion "0" ignore limit. */
    public ObjectRegistry(
            VersionedStore store,
            ResourceRegistry resources,
            Ticker clock,
            ObjectValidator validator,
            PatchApplier patcher) {
        this(store, resources, clock, validator, patcher, true);
    }

    /**
     * A registry over {@code store} serving {@code resources}.
     *
     * @param listZeroFromCache true to answer a LIST at resourceVersion "0" whole, ignoring {@code limit}, as
     *        kube-apiserver's watch cache does; false to page it like any other list (no watch cache)
     */
    public ObjectRegistry(
            VersionedStore store,
            ResourceRegistry resources,
            Ticker clock,
            ObjectValidator validator,
            PatchApplier patcher,
            boolean listZeroFromCache) {
        this.listZeroFromCache = listZeroFromCache;
        this.store = Objects.requireNonNull(store, "store");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.services = new ServiceAddresses(store);
        this.patcher = Objects.requireNonNull(patcher, "patcher");
        this.namespaces = new NamespaceLifecycle(this, resources);
    }

    /** The store. */
    public VersionedStore store() {
        return store;
    }

    /** The served resources. */
    public ResourceRegistry resources() {
        return resources;
    }

    /** The outcome of a write: the object to answer with, and whether it was created. */
    public record Written(StoredObject object, boolean created, boolean deleted) {}

    private static String key(ResourceDefinition def, String namespace, String name) {
        return Metadata.key(def.namespaced() ? namespace : "", name);
    }

    /** GET one object (404 when absent). */
    public StoredObject get(ResourceDefinition def, String namespace, String name) {
        return store.get(def.storageId(), key(def, namespace, name)).orElseThrow(() -> ApiErrors.notFound(def, name));
    }

    /** The label/field selector predicate of a request (400 for a bad selector or unsupported field). */
    public Predicate<StoredObject> filter(ResourceDefinition def, ListParams p) {
        LabelSelector labels;
        FieldSelector fields;
        try {
            labels = p.labelSelector() == null || p.labelSelector().isEmpty()
                    ? LabelSelector.everything()
                    : LabelSelector.parse(p.labelSelector());
            fields = p.fieldSelector() == null || p.fieldSelector().isEmpty()
                    ? FieldSelector.everything()
                    : FieldSelector.parse(p.fieldSelector());
        } catch (SelectorParseException e) {
            throw ApiErrors.badRequest(e.getMessage());
        }
        for (FieldRequirement r : fields.requirements()) {
            if (!r.field().equals("metadata.name")
                    && !r.field().equals("metadata.namespace")
                    && !def.fieldSelectors().contains(r.field())) {
                throw ApiErrors.badRequest("field label not supported: " + r.field());
            }
        }
        if (labels.isEverything() && fields.isEverything()) {
            return o -> true;
        }
        return o -> labels.matches(ObjectSemantics.labels(o.object()))
                && fields.matches(f -> ObjectSemantics.fieldValue(o.object(), f));
    }

    /** LIST. */
    public ListPage list(ResourceDefinition def, String namespace, ListParams p) {
        p.validate();
        Predicate<StoredObject> filter = filter(def, p);
        boolean filtered = p.labelSelector() != null && !p.labelSelector().isEmpty()
                || p.fieldSelector() != null && !p.fieldSelector().isEmpty();
        ContinueToken ct = p.continueToken() == null || p.continueToken().isEmpty()
                ? null
                : ContinueToken.decode(p.continueToken());
        long rv = p.revision();
        boolean exact =
                "Exact".equals(p.resourceVersionMatch()) || p.resourceVersionMatch() == null && rv > 0 && p.limit() > 0;
        int limit = p.limit() > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) p.limit();
        if (listZeroFromCache && "0".equals(p.resourceVersion()) && ct == null) {
            limit = 0; // RV=0 is served from the cache, which ignores limit
        }
        return store.list(new ListQuery(
                def.storageId(), def.namespaced() ? namespace : null, filter, filtered, rv, exact, limit, ct));
    }

    /**
     * WATCH. 410 (too old) and 504 (watch-list at a future revision) are thrown; the
     * HTTP layer turns them into an ERROR event.
     */
    public Watcher watch(ResourceDefinition def, String namespace, ListParams p) {
        p.validate();
        Predicate<StoredObject> filter = filter(def, p);
        String ns = def.namespaced() ? namespace : null;
        long rv = p.revision();
        if (Boolean.TRUE.equals(p.sendInitialEvents())) {
            if (rv > 0) {
                store.awaitRevision(rv);
            }
            return store.watch(new WatchRequest(def.storageId(), ns, filter, 0, true, true));
        }
        if (Boolean.FALSE.equals(p.sendInitialEvents())) {
            return store.watch(new WatchRequest(
                    def.storageId(), ns, filter, rv == 0 ? store.currentRevision() : rv, false, false));
        }
        if (rv == 0) {
            return store.watch(new WatchRequest(def.storageId(), ns, filter, 0, true, false));
        }
        return store.watch(new WatchRequest(def.storageId(), ns, filter, rv, false, false));
    }

    /** POST: 201 semantics; the body is consumed. */
    public Written create(ResourceDefinition def, String namespace, ObjectNode body, WriteContext ctx) {
        requireVerb(def, "create");
        ObjectSemantics.checkTypeMeta(def, body, def.kind(), def.apiVersion());
        ObjectSemantics.checkNamespace(def, body, namespace);
        ObjectNode meta = Metadata.metadata(body);
        if (!Metadata.text(body, "resourceVersion").isEmpty()) {
            throw new InternalErrorException(Status.failure(
                    500,
                    "InternalError",
                    "Internal error occurred: resourceVersion should not be set on objects to be created"));
        }
        String generateName = Metadata.text(body, "generateName");
        boolean generated = Metadata.text(body, "name").isEmpty() && !generateName.isEmpty();
        if (generated) {
            List<String> problems = def.nameRule().validatePrefix(generateName);
            if (!problems.isEmpty()) {
                throw ApiErrors.invalid(
                        def,
                        "",
                        problems.stream()
                                .map(pr -> ApiErrors.FieldError.invalid("metadata.generateName", generateName, pr))
                                .toList());
            }
        }
        for (int attempt = 0; ; attempt++) {
            ObjectNode obj = attempt == 0 ? body : body.deepCopy();
            if (generated) {
                Metadata.metadata(obj).put("name", ObjectSemantics.generateName(generateName));
            }
            ObjectSemantics.validateName(def, obj);
            ObjectSemantics.prepareCreate(def, obj, clock.instant());
            ctx.mutation().mutate(def, obj, null);
            validator.validate(def, obj, null, Operation.CREATE, ctx);
            services.assign(def, obj, null);
            ctx.admission().admit(def, obj, null);
            ManagedFieldsRecorder.recordUpdate(def, obj, null, ctx.updateManager(), "", clock.instant());
            String name = Metadata.text(obj, "name");
            try {
                WriteResult r = store.write(def.storageId(), key(def, namespace, name), cur -> {
                    if (cur != null) {
                        throw ApiErrors.alreadyExists(def, name);
                    }
                    if (def.namespaced()) {
                        checkNamespaceOpen(def, namespace, name);
                    }
                    return ctx.dryRun() ? new Change.DryRun(obj, false) : Change.put(obj);
                });
                return new Written(r.object(), true, false);
            } catch (AlreadyExistsException e) {
                if (!generated || attempt >= 7) {
                    throw e;
                }
            }
        }
        // unreachable: the loop returns or throws
    }

    private void checkNamespaceOpen(ResourceDefinition def, String namespace, String name) {
        StoredObject ns =
                store.get("/namespaces", namespace).orElseThrow(() -> ApiErrors.notFound("", "namespaces", namespace));
        if ("Terminating".equals(ns.object().path("status").path("phase").asString(""))
                || ns.object().path("metadata").has("deletionTimestamp")) {
            throw ApiErrors.namespaceTerminating(def, name, namespace);
        }
    }

    private static void requireVerb(ResourceDefinition def, String verb) {
        if (def.terminating() && verb.equals("create")) {
            throw new MethodNotAllowedException(Status.failure(
                    405, "MethodNotAllowed", "create not allowed while custom resource definition is terminating"));
        }
        if (!def.allows(verb)) {
            throw ApiErrors.methodNotAllowed(verb, def.plural());
        }
    }

    /**
     * PUT on the object or its {@code status} / {@code finalize} subresource; a PUT of a missing object of a
     * resource that {@linkplain ResourceDefinition#createsOnUpdate() creates on update} creates it.
     */
    public Written update(
            ResourceDefinition def,
            String namespace,
            String name,
            String subresource,
            ObjectNode body,
            WriteContext ctx) {
        requireVerb(def, "update");
        ObjectSemantics.checkTypeMeta(def, body, def.kind(), def.apiVersion());
        String bodyName = Metadata.text(body, "name");
        if (!bodyName.equals(name)) {
            throw ApiErrors.badRequest(
                    "the name of the object (" + bodyName + ") does not match the name on the URL (" + name + ")");
        }
        ObjectSemantics.checkNamespace(def, body, namespace);
        String rv = Metadata.text(body, "resourceVersion");
        boolean[] created = {false};
        WriteResult r = write(def, key(def, namespace, name), ctx, cur -> {
            created[0] = false;
            if (cur == null) {
                if (!subresource.isEmpty() || !def.createsOnUpdate()) {
                    throw ApiErrors.notFound(def, name);
                }
                created[0] = true;
                return prepareUpdateCreate(def, namespace, name, body.deepCopy(), ctx);
            }
            if (rv.isEmpty() && def.custom()) { // (a missing object is a 404 first)
                throw ApiErrors.invalid(
                        def,
                        name,
                        List.of(ApiErrors.FieldError.invalid(
                                "metadata.resourceVersion", "0x0", "must be specified for an update")));
            }
            if (!rv.isEmpty() && !rv.equals(Long.toString(cur.resourceVersion()))) {
                throw ApiErrors.conflict(def, name, ApiErrors.MODIFIED);
            }
            return decideUpdate(def, cur, body.deepCopy(), subresource, ctx, Operation.UPDATE, true);
        });
        return new Written(r.object(), created[0], r.deleted());
    }

    /**
     * A PUT of a missing object of a resource that creates on update: the body is created as a POST would
     * create it (its resourceVersion ignored), except that a uid in it is a precondition no missing object
     * meets (409). Admission sees a CREATE.
     */
    private Change prepareUpdateCreate(
            ResourceDefinition def, String namespace, String name, ObjectNode obj, WriteContext ctx) {
        String uid = Metadata.text(obj, "uid");
        if (!uid.isEmpty()) {
            throw ApiErrors.conflict(
                    def, name, "Precondition failed: UID in precondition: " + uid + ", UID in object meta: ");
        }
        Metadata.metadata(obj).remove("resourceVersion");
        ObjectSemantics.validateName(def, obj);
        if (def.namespaced()) {
            checkNamespaceOpen(def, namespace, name);
        }
        ObjectSemantics.prepareCreate(def, obj, clock.instant());
        ctx.mutation().mutate(def, obj, null);
        validator.validate(def, obj, null, Operation.CREATE, ctx);
        services.assign(def, obj, null);
        ctx.admission().admit(def, obj, null);
        ManagedFieldsRecorder.recordUpdate(def, obj, null, ctx.updateManager(), "", clock.instant());
        return ctx.dryRun() ? new Change.DryRun(obj, false) : Change.put(obj);
    }

    private Change decideUpdate(
            ResourceDefinition def,
            StoredObject cur,
            ObjectNode updated,
            String subresource,
            WriteContext ctx,
            Operation op,
            boolean recordUpdate) {
        ObjectNode next;
        if (subresource.equals("finalize")) {
            next = cur.object().deepCopy();
            next.set("spec", updated.path("spec").isObject() ? updated.get("spec") : next.objectNode());
        } else {
            next = ObjectSemantics.prepareUpdate(def, cur, updated, subresource);
        }
        ObjectSemantics.checkNoNewFinalizers(def, cur.object(), next);
        ctx.mutation().mutate(def, next, cur.object());
        validator.validate(def, next, cur.object(), op, ctx);
        services.assign(def, next, cur.object());
        ctx.admission().admit(def, next, cur.object());
        if (ObjectSemantics.sameContent(cur.object(), next)
                && (recordUpdate
                        || Objects.equals(
                                cur.object().path("metadata").get("managedFields"),
                                next.path("metadata").get("managedFields")))) {
            return Change.keep(); // (an apply that only changes ownership is still a write)
        }
        if (recordUpdate) { // apply patches: the SSA library maintains managedFields itself
            ManagedFieldsRecorder.recordUpdate(
                    def, next, cur.object(), ctx.updateManager(), subresource, clock.instant());
        }
        // the real store deletes on update when no finalizer is left and the grace period is over (0)
        JsonNode pendingGrace = cur.object().path("metadata").path("deletionGracePeriodSeconds");
        if (pendingGrace.isNumber()
                && pendingGrace.asLong() == 0
                && ObjectSemantics.finalizers(next).isEmpty()
                && namespaceFinalized(def, next)) {
            return ctx.dryRun() ? new Change.DryRun(next, true) : Change.delete();
        }
        return ctx.dryRun() ? new Change.DryRun(next, false) : Change.put(next);
    }

    private static boolean namespaceFinalized(ResourceDefinition def, ObjectNode ns) {
        return !(def.group().isEmpty() && def.plural().equals("namespaces"))
                || ns.path("spec").path("finalizers").isEmpty();
    }

    /**
     * PATCH: 415 for strategic merge on custom resources; apply on a missing object creates it.
     *
     * @param contentType the request's Content-Type
     */
    public Written patch(
            ResourceDefinition def,
            String namespace,
            String name,
            String subresource,
            String contentType,
            byte[] body,
            WriteContext ctx) {
        requireVerb(def, "patch");
        PatchType type = patchType(contentType)
                .filter(t -> !(t == PatchType.STRATEGIC_MERGE && def.custom()))
                .orElseThrow(() -> ApiErrors.unsupportedMediaType("the body of the request was in an unknown format - "
                        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                        + "application/apply-patch+yaml"));
        if (type == PatchType.APPLY
                && (ctx.fieldManager() == null || ctx.fieldManager().isEmpty())) {
            throw ApiErrors.invalidOptions(
                    "PatchOptions", ApiErrors.FieldError.required("fieldManager", "is required for apply patch"));
        }
        if (type != PatchType.APPLY && ctx.force()) {
            throw ApiErrors.invalidOptions(
                    "PatchOptions",
                    ApiErrors.FieldError.forbidden("force", "may not be specified for non-apply patch"));
        }
        boolean[] created = {false};
        WriteResult r = write(def, key(def, namespace, name), ctx, cur -> {
            created[0] = false;
            if (cur == null) {
                if (type != PatchType.APPLY || !subresource.isEmpty()) {
                    throw ApiErrors.notFound(def, name);
                }
                ObjectNode obj = patcher.apply(def, null, type, body, subresource, ctx);
                created[0] = true;
                return prepareApplyCreate(def, namespace, name, obj, ctx);
            }
            ObjectNode patched = patcher.apply(def, cur.object().deepCopy(), type, body, subresource, ctx);
            String rv = Metadata.text(patched, "resourceVersion");
            if (!rv.isEmpty() && !rv.equals(Long.toString(cur.resourceVersion()))) {
                throw ApiErrors.conflict(def, name, ApiErrors.MODIFIED);
            }
            if (!Metadata.text(patched, "name").equals(name)) {
                throw ApiErrors.badRequest("the name of the object (" + Metadata.text(patched, "name")
                        + ") does not match the name on the URL (" + name + ")");
            }
            return decideUpdate(def, cur, patched, subresource, ctx, Operation.PATCH, type != PatchType.APPLY);
        });
        return new Written(r.object(), created[0], r.deleted());
    }

    /**
     * {@code store.write}, or, when the request admits outside the lock, the same decision made on a
     * snapshot with no lock held and committed only if the object is still that snapshot (retried
     * otherwise), so that webhooks never run under the store's lock.
     */
    private WriteResult write(
            ResourceDefinition def, String key, WriteContext ctx, Function<StoredObject, Change> decide) {
        if (!ctx.admitsOutsideLock()) {
            return store.write(def.storageId(), key, decide);
        }
        while (true) {
            StoredObject snapshot = store.get(def.storageId(), key).orElse(null);
            Change change = decide.apply(snapshot);
            long seen = snapshot == null ? 0 : snapshot.resourceVersion();
            boolean[] moved = {false};
            WriteResult r = store.write(def.storageId(), key, cur -> {
                if ((cur == null ? 0 : cur.resourceVersion()) != seen) {
                    moved[0] = true;
                    return Change.keep();
                }
                return change;
            });
            if (!moved[0]) {
                return r;
            }
            LockSupport.parkNanos(100_000); // a write of it is being published
        }
    }

    /** The patch type of a request's Content-Type (parameters and case ignored); empty for any other media type. */
    static Optional<PatchType> patchType(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        String mediaType = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        for (PatchType t : PatchType.values()) {
            if (t.contentType().equals(mediaType)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private Change prepareApplyCreate(
            ResourceDefinition def, String namespace, String name, ObjectNode obj, WriteContext ctx) {
        ObjectSemantics.checkTypeMeta(def, obj, def.kind(), def.apiVersion());
        ObjectSemantics.checkNamespace(def, obj, namespace);
        Metadata.metadata(obj).put("name", name);
        Metadata.metadata(obj).remove("resourceVersion");
        ObjectSemantics.validateName(def, obj);
        if (def.namespaced()) {
            checkNamespaceOpen(def, namespace, name);
        }
        JsonNode managed = Metadata.metadata(obj).get("managedFields"); // set by the SSA applier
        ObjectSemantics.prepareCreate(def, obj, clock.instant());
        if (managed != null) {
            Metadata.metadata(obj).set("managedFields", managed);
        }
        ctx.mutation().mutate(def, obj, null);
        validator.validate(def, obj, null, Operation.PATCH, ctx);
        services.assign(def, obj, null);
        ctx.admission().admit(def, obj, null);
        return ctx.dryRun() ? new Change.DryRun(obj, false) : Change.put(obj);
    }

    /** DELETE; what it does to the object is decided by {@link DeletionDecision}. */
    public Written delete(ResourceDefinition def, String namespace, String name, DeleteParams opts, WriteContext ctx) {
        requireVerb(def, "delete");
        opts.validate();
        boolean isNamespace = DeletionDecision.isNamespace(def);
        if (isNamespace && PROTECTED_NAMESPACES.contains(name)) {
            throw ApiErrors.forbidden(def, name, "this namespace may not be deleted");
        }
        WriteResult r = write(def, key(def, namespace, name), ctx, cur -> {
            if (cur == null) {
                throw ApiErrors.notFound(def, name);
            }
            String uid = Metadata.text(cur.object(), "uid");
            if (opts.preconditionUid() != null && !opts.preconditionUid().equals(uid)) {
                throw ApiErrors.conflict(
                        def,
                        name,
                        "Precondition failed: UID in precondition: " + opts.preconditionUid() + ", UID in object meta: "
                                + uid);
            }
            if (opts.preconditionResourceVersion() != null
                    && !opts.preconditionResourceVersion().equals(Long.toString(cur.resourceVersion()))) {
                throw ApiErrors.conflict(
                        def,
                        name,
                        "Precondition failed: ResourceVersion in precondition: " + opts.preconditionResourceVersion()
                                + ", ResourceVersion in object meta: " + cur.resourceVersion());
            }
            ctx.admission().admit(def, null, cur.object());
            return DeletionDecision.decide(def, cur, opts, ctx.dryRun(), clock.instant());
        });
        if (isNamespace && r.committed() && !r.deleted()) {
            namespaces.terminate(name);
        }
        return new Written(r.object(), false, r.deleted());
    }

    /** DELETE on a collection: deletes (or marks terminating) every selected object; returns them. */
    public List<StoredObject> deleteCollection(
            ResourceDefinition def, String namespace, ListParams p, DeleteParams opts, WriteContext ctx) {
        requireVerb(def, "deletecollection");
        List<StoredObject> out = new ArrayList<>();
        for (StoredObject o : list(def, namespace, p).items()) {
            try {
                out.add(delete(def, o.namespace(), o.name(), opts, ctx).object());
            } catch (NotFoundException e) {
                // deleted concurrently: fine
            }
        }
        return out;
    }
}
