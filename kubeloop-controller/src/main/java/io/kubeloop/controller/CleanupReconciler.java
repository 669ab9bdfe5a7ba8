package io.kubeloop.controller;

import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.client.PatchType;
import io.kubeloop.controller.client.Client;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link Reconciler} behind a finalizer: {@link ControllerBuilder#withCleanup}'s wrapper. Per
 * request, on the object as the cache holds it:
 * <ul>
 *   <li>gone: the reconciler runs (and sees it gone);</li>
 *   <li>live without the finalizer: the finalizer is added (a merge patch, guarded by the
 *       resourceVersion read), and that is all: the update it makes reconciles the object again
 *       ({@link ControllerBuilder} lets that event through whatever its filters), and the reconciler
 *       then reads an object that has the finalizer and its new resourceVersion — its own writes
 *       guarded by that version do not fail on one the cache had not seen yet;</li>
 *   <li>live with it: the reconciler runs;</li>
 *   <li>being deleted with the finalizer: the {@link Cleaner} runs, and when it is done the
 *       finalizer is removed the same way (an object the server no longer has, read from a cache
 *       that was behind, needs no removal: done); the reconciler does not run;</li>
 *   <li>being deleted without it: nothing runs.</li>
 * </ul>
 * A patch over a stale read fails with a conflict, which the controller retries quietly.
 *
 * <p><b>Thread safety:</b> immutable; thread-safe as the reconciler and cleaner are.
 *
 * @param <T> the reconciled type
 */
final class CleanupReconciler<T> implements Reconciler {

    private final Class<T> type;
    private final String finalizer;
    private final Cleaner<? super T> cleaner;
    private final Reconciler reconciler;

    CleanupReconciler(Class<T> type, String finalizer, Cleaner<? super T> cleaner, Reconciler reconciler) {
        this.type = Objects.requireNonNull(type, "type");
        this.finalizer = Objects.requireNonNull(finalizer, "finalizer");
        this.cleaner = Objects.requireNonNull(cleaner, "cleaner");
        this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    }

    @Override
    public Result reconcile(Request request, ReconcileContext context) throws Exception {
        Client client = context.client();
        Optional<T> found = client.getOptional(type, request.key());
        if (found.isEmpty()) {
            return reconciler.reconcile(request, context);
        }
        T object = found.get();
        ObjectMeta metadata = ObjectAccess.metadata(object);
        List<String> finalizers = metadata.finalizersOrEmpty();
        boolean held = finalizers.contains(finalizer);
        if (metadata.isTerminating()) {
            if (!held) {
                return Result.done(); // being deleted and not ours to hold: nothing more to do
            }
            Result result = cleaner.cleanup(object, context);
            if (result == null) {
                throw new NullPointerException("the cleaner of " + context.controllerName() + " returned no Result for "
                        + request + "; return Result.done() when cleaned up");
            }
            if (result instanceof Result.Done) {
                List<String> rest = new ArrayList<>(finalizers);
                rest.removeIf(finalizer::equals);
                try {
                    patchFinalizers(client, object, metadata, rest);
                } catch (NotFoundException gone) {
                    // the cache was behind: the object is deleted already, and its finalizers with it
                    context.log().debug("cleaned up; the object is gone already");
                    return result;
                }
                context.log().debug("cleaned up; removed the finalizer {}", finalizer);
            }
            return result;
        }
        if (!held) {
            List<String> more = new ArrayList<>(finalizers);
            more.add(finalizer);
            patchFinalizers(client, object, metadata, more);
            return Result.done(); // the patch's update event brings the object back, finalizer and all
        }
        return reconciler.reconcile(request, context);
    }

    /** Whether {@code event} is the update that added {@code finalizer} to an object. */
    static boolean addsFinalizer(Event<?> event, String finalizer) {
        return event instanceof Event.Update<?> u
                && !ObjectAccess.metadata(u.oldObject()).finalizersOrEmpty().contains(finalizer)
                && ObjectAccess.metadata(u.newObject()).finalizersOrEmpty().contains(finalizer);
    }

    /**
     * Sets the object's finalizers with a merge patch that carries the resourceVersion read
     * (controller-runtime's {@code MergeFromWithOptimisticLock}): a finalizer list changed meanwhile
     * by someone else fails the patch with a conflict instead of being overwritten.
     */
    private static void patchFinalizers(Client client, Object object, ObjectMeta metadata, List<String> finalizers) {
        ObjectNode patch = KubeJson.mapper().createObjectNode();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("resourceVersion", metadata.resourceVersion());
        ArrayNode list = meta.putArray("finalizers");
        finalizers.forEach(list::add);
        client.patch(object, PatchType.MERGE, patch);
    }

    @Override
    public String toString() {
        return "CleanupReconciler[" + finalizer + ", " + reconciler + "]";
    }
}
