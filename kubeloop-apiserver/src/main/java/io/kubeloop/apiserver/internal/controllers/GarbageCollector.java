package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.internal.Joins;
import io.kubeloop.workqueue.RateLimiter;
import io.kubeloop.workqueue.RateLimitingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-controller-manager's garbage collector for the embedded server: deletes objects whose owners are gone,
 * and carries out foreground and orphan deletion.
 *
 * <p><b>How it works</b> (the real GC's design): a metadata informer per resource ({@link MetadataInformers},
 * custom resources included as their CRDs are served) feeds every change into one event queue; a single
 * thread applies them to the {@link DependencyGraph} (owner uid → dependents), which queues uids on two
 * rate-limited work queues:
 * <ul>
 *   <li><b>attemptToDelete</b> (two workers): the object is looked up live. An object being deleted in the
 *       foreground loses its {@code foregroundDeletion} finalizer once no dependent with
 *       {@code blockOwnerDeletion: true} is left (blocking dependents not yet deleting are queued). Otherwise
 *       its ownerReferences are classified by a live lookup of each owner, in the dependent's namespace when the
 *       owner kind is namespaced: <em>dangling</em> (absent, or another uid), <em>waiting</em> (being deleted
 *       with {@code foregroundDeletion}) or <em>solid</em>. With a solid owner the object stays and only its
 *       dangling and waiting references are removed; with waiting owners and dependents of its own it is
 *       deleted in the foreground (its references made non-blocking first if a dependent is also deleting its
 *       dependents, to break cycles); otherwise it is deleted, Orphan or Foreground if it already carries that
 *       finalizer, else Background, always with a uid precondition. A cluster-scoped object naming a namespaced
 *       owner is left alone; a reference to a kind the server does not serve is retried with backoff.</li>
 *   <li><b>attemptToOrphan</b> (one worker): an object being deleted with the {@code orphan} finalizer has the
 *       references to it removed from every dependent, then loses the finalizer.</li>
 * </ul>
 * An owner only known from a reference (one that never existed, or whose deletion the graph has not seen) is a
 * virtual node, checked by a live lookup: absent, its dependents are collected.
 *
 * <p><b>Cost.</b> Writes are not slowed: the store offers each change to one more watch buffer per resource;
 * everything else runs on the collector's own threads. Memory: one {@link ObjectMetadata} and one graph node
 * per object.
 *
 * <p><b>Thread safety.</b> Thread-safe. {@link #close()} stops the workers and the graph thread and waits for
 * them; the informers belong to the {@link MetadataInformers} given at construction.
 */
public final class GarbageCollector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    private static final int DELETE_WORKERS = 2;
    private static final DependencyGraph.Event STOP = new DependencyGraph.Event(
            DependencyGraph.Type.DELETE,
            new ObjectMetadata("", "", ObjectMeta.builder().build()),
            null,
            false);

    private final LiveObjects live;
    private final RateLimitingQueue<String> attemptToDelete = RateLimitingQueue.create(
            RateLimiter.defaultControllerRateLimiter(),
            WorkQueueOptions.builder()
                    .name("garbage_collector_attempt_to_delete")
                    .build());
    private final RateLimitingQueue<String> attemptToOrphan = RateLimitingQueue.create(
            RateLimiter.defaultControllerRateLimiter(),
            WorkQueueOptions.builder()
                    .name("garbage_collector_attempt_to_orphan")
                    .build());
    private final BlockingQueue<DependencyGraph.Event> graphChanges = new LinkedBlockingQueue<>();
    private final DependencyGraph graph = new DependencyGraph(attemptToDelete::add, attemptToOrphan::add);
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();

    /** What one work item's processing asks for. */
    private enum Outcome {
        FORGET,
        REQUEUE
    }

    /** A collector fed by {@code informers} (subscribe happens here: call before the informers start). */
    GarbageCollector(LiveObjects live, MetadataInformers informers) {
        this.live = Objects.requireNonNull(live, "live");
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata object, boolean isInInitialList) {
                graphChanges.add(new DependencyGraph.Event(DependencyGraph.Type.ADD, object, null, false));
            }

            @Override
            public void onUpdate(ObjectMetadata oldObject, ObjectMetadata newObject) {
                graphChanges.add(new DependencyGraph.Event(DependencyGraph.Type.UPDATE, newObject, oldObject, false));
            }

            @Override
            public void onDelete(ObjectMetadata object, boolean finalStateUnknown) {
                graphChanges.add(new DependencyGraph.Event(DependencyGraph.Type.DELETE, object, null, false));
            }
        });
    }

    /** Starts the graph thread and the workers. */
    void start() {
        threads.add(Thread.ofVirtual().name("gc-graph-builder").start(this::runGraphBuilder));
        for (int i = 0; i < DELETE_WORKERS; i++) {
            threads.add(Thread.ofVirtual()
                    .name("gc-attempt-to-delete-" + i)
                    .start(() -> runWorker(attemptToDelete, this::attemptToDelete)));
        }
        threads.add(Thread.ofVirtual()
                .name("gc-attempt-to-orphan")
                .start(() -> runWorker(attemptToOrphan, this::attemptToOrphan)));
    }

    /** Number of objects (and virtual owners) in the dependency graph. */
    public int graphSize() {
        return graph.size();
    }

    private void runGraphBuilder() {
        while (true) {
            DependencyGraph.Event e;
            try {
                e = graphChanges.take();
            } catch (InterruptedException ex) {
                return;
            }
            if (e == STOP) {
                return;
            }
            try {
                graph.process(e);
            } catch (RuntimeException ex) {
                LOG.warn("garbage collector: cannot process {} of {}", e.type(), e.object(), ex);
            }
        }
    }

    private void runWorker(RateLimitingQueue<String> queue, Function<String, Outcome> work) {
        while (true) {
            Optional<String> item = queue.get();
            if (item.isEmpty()) {
                return;
            }
            String uid = item.get();
            try {
                if (stopping.get()) {
                    continue;
                }
                Outcome o;
                try {
                    o = work.apply(uid);
                } catch (LiveObjects.UnknownKindException e) {
                    LOG.debug("garbage collector: {} (retrying {})", e.getMessage(), uid);
                    o = Outcome.REQUEUE;
                } catch (RuntimeException e) {
                    if (stopping.get()) {
                        continue;
                    }
                    LOG.warn("garbage collector: processing {} failed, retrying", uid, e);
                    o = Outcome.REQUEUE;
                }
                switch (o) {
                    case FORGET -> queue.forget(uid);
                    case REQUEUE -> queue.addRateLimited(uid);
                }
            } finally {
                queue.done(uid);
            }
        }
    }

    /** The real GC's {@code attemptToDeleteItem} (see the class comment). */
    private Outcome attemptToDelete(String uid) {
        Optional<DependencyGraph.Snapshot> found = graph.snapshot(uid);
        if (found.isEmpty()) {
            return Outcome.FORGET;
        }
        DependencyGraph.Snapshot item = found.get();
        if (item.beingDeleted() && !item.deletingDependents()) {
            return Outcome.FORGET; // its deletion will be observed; then its dependents are processed
        }
        Optional<StoredObject> latest = live.get(item.identity());
        if (latest.isEmpty()) {
            // absent at these coordinates (or another uid there): the graph learns it, dependents follow
            graphChanges.add(virtualDelete(item.identity()));
            return Outcome.FORGET;
        }
        if (item.deletingDependents()) {
            processDeletingDependents(item);
            return Outcome.FORGET;
        }
        List<OwnerReference> owners = ownerReferences(latest.get().object());
        if (owners.isEmpty()) {
            return item.observed() ? Outcome.FORGET : Outcome.REQUEUE;
        }
        Set<String> dangling = new HashSet<>();
        Set<String> waiting = new HashSet<>();
        int solid = 0;
        for (OwnerReference ref : owners) {
            ResourceDefinition ownerDef = live.resolve(ref.apiVersion(), ref.kind());
            if (item.identity().namespace().isEmpty() && ownerDef.namespaced()) {
                LOG.info(
                        "garbage collector: cluster-scoped {} names a namespaced owner {} {}; ignoring it",
                        item.identity(),
                        ref.kind(),
                        ref.name());
                return Outcome.FORGET; // does not resolve by retrying
            }
            Optional<StoredObject> owner = live.get(ownerDef, item.identity().namespace(), ref.name());
            if (owner.isEmpty()
                    || !owner.get()
                            .object()
                            .path("metadata")
                            .path("uid")
                            .asString("")
                            .equals(ref.uid())) {
                dangling.add(ref.uid());
            } else if (owner.get().object().path("metadata").has("deletionTimestamp")
                    && finalizers(owner.get().object()).contains(DeleteParams.FOREGROUND_FINALIZER)) {
                waiting.add(ref.uid());
            } else {
                solid++;
            }
        }
        if (solid > 0) {
            if (!dangling.isEmpty() || !waiting.isEmpty()) {
                live.updateOwnerReferences(
                        item.identity(),
                        refs -> LiveObjects.without(refs, u -> dangling.contains(u) || waiting.contains(u)));
            }
        } else if (!waiting.isEmpty() && !item.dependents().isEmpty()) {
            if (item.dependents().stream().anyMatch(DependencyGraph.Dependent::deletingDependents)) {
                live.updateOwnerReferences(item.identity(), GarbageCollector::unblocked);
            }
            live.delete(item.identity(), "Foreground");
        } else {
            List<String> fin = finalizers(latest.get().object());
            String policy = fin.contains(DeleteParams.ORPHAN_FINALIZER)
                    ? "Orphan"
                    : fin.contains(DeleteParams.FOREGROUND_FINALIZER) ? "Foreground" : "Background";
            live.delete(item.identity(), policy);
        }
        return item.observed() ? Outcome.FORGET : Outcome.REQUEUE;
    }

    private void processDeletingDependents(DependencyGraph.Snapshot item) {
        List<DependencyGraph.Dependent> blocking = item.dependents().stream()
                .filter(DependencyGraph.Dependent::blocking)
                .toList();
        if (blocking.isEmpty()) {
            live.removeFinalizer(item.identity(), DeleteParams.FOREGROUND_FINALIZER);
            return;
        }
        for (DependencyGraph.Dependent dep : blocking) {
            if (!dep.deletingDependents()) {
                attemptToDelete.add(dep.identity().uid());
            }
        }
    }

    /** The real GC's {@code attemptToOrphanWorker}: strip references to the owner, then its finalizer. */
    private Outcome attemptToOrphan(String uid) {
        Optional<DependencyGraph.Snapshot> found = graph.snapshot(uid);
        if (found.isEmpty()) {
            return Outcome.FORGET;
        }
        DependencyGraph.Snapshot owner = found.get();
        for (DependencyGraph.Dependent dep : owner.dependents()) {
            live.updateOwnerReferences(dep.identity(), refs -> LiveObjects.without(refs, uid::equals));
        }
        live.removeFinalizer(owner.identity(), DeleteParams.ORPHAN_FINALIZER);
        return Outcome.FORGET;
    }

    private static ArrayNode unblocked(ArrayNode refs) {
        for (JsonNode r : refs) {
            if (r instanceof ObjectNode o && o.path("blockOwnerDeletion").asBoolean(false)) {
                o.put("blockOwnerDeletion", false);
            }
        }
        return refs;
    }

    private static DependencyGraph.Event virtualDelete(ObjectIdentity id) {
        ObjectMetadata m = new ObjectMetadata(
                id.apiVersion(),
                id.kind(),
                ObjectMeta.builder()
                        .namespace(id.namespace())
                        .name(id.name())
                        .uid(id.uid())
                        .build());
        return new DependencyGraph.Event(DependencyGraph.Type.DELETE, m, null, true);
    }

    private static List<OwnerReference> ownerReferences(ObjectNode object) {
        List<OwnerReference> out = new ArrayList<>();
        for (JsonNode r : object.path("metadata").path("ownerReferences")) {
            out.add(new OwnerReference(
                    r.path("apiVersion").asString(""),
                    r.path("kind").asString(""),
                    r.path("name").asString(""),
                    r.path("uid").asString(""),
                    null,
                    r.path("blockOwnerDeletion").isBoolean()
                            ? r.get("blockOwnerDeletion").asBoolean()
                            : null));
        }
        return out;
    }

    private static List<String> finalizers(ObjectNode object) {
        List<String> out = new ArrayList<>();
        object.path("metadata").path("finalizers").forEach(f -> out.add(f.asString()));
        return out;
    }

    /** Stops the workers (items still queued are dropped) and the graph thread, and waits for them. */
    @Override
    public void close() {
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        attemptToDelete.shutDown();
        attemptToOrphan.shutDown();
        graphChanges.add(STOP);
        // a worker's write can fail the journal, which closes the server on that very thread
        Joins.joinAllUninterruptibly(threads);
    }
}
