package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.apiserver.internal.storage.Change;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one DELETE does to the stored object, decided as the real kube-apiserver does
 * ({@code rest.BeforeDelete}, the generic store's {@code Delete} and
 * {@code updateForGracefulDeletionAndFinalizers}):
 *
 * <ul>
 *   <li><b>Graceful deletion</b> is a Pod's alone: a Pod bound to a node ({@code spec.nodeName}) and not in a
 *       terminal phase gets {@code deletionTimestamp = now + grace} and {@code deletionGracePeriodSeconds = grace}
 *       (grace: the option, else {@code spec.terminationGracePeriodSeconds}, else 30) and stays; with grace 0,
 *       unbound or terminal it goes at once. A negative grace counts as 1.</li>
 *   <li>While a grace period is pending, a DELETE may only <em>shorten</em> it (the timestamp moves back by the
 *       difference); an equal or longer grace, or none, changes nothing, not even the finalizers. Shortened to 0
 *       without finalizers, the object goes.</li>
 *   <li><b>Finalizers</b>: the propagation options add or swap {@code orphan} / {@code foregroundDeletion}
 *       ({@link DeleteParams#finalizersAfter}); with any finalizer left the object is only marked
 *       ({@code deletionTimestamp} now unless earlier, {@code deletionGracePeriodSeconds 0}, generation + 1 on the
 *       first mark); without, it is removed. A repeated DELETE with other options can therefore swap the policy
 *       finalizer, or remove the object when none is left.</li>
 *   <li>Namespaces are always only marked (their {@code spec.finalizers} hold them); a CustomResourceDefinition
 *       gains {@link ObjectRegistry#CRD_CLEANUP_FINALIZER}.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class DeletionDecision {

    /** A Pod's grace period when its spec names none (the API default of terminationGracePeriodSeconds). */
    static final long DEFAULT_POD_GRACE_SECONDS = 30;

    private DeletionDecision() {}

    /** True for resources whose DELETE without options orphans dependents (batch/v1 Jobs, for compatibility). */
    static boolean orphansByDefault(ResourceDefinition def) {
        return def.group().equals("batch")
                && def.version().equals("v1")
                && def.plural().equals("jobs");
    }

    static boolean isPod(ResourceDefinition def) {
        return def.group().isEmpty() && def.plural().equals("pods");
    }

    static boolean isNamespace(ResourceDefinition def) {
        return def.group().isEmpty() && def.plural().equals("namespaces");
    }

    static boolean isCrd(ResourceDefinition def) {
        return def.group().equals("apiextensions.k8s.io") && def.plural().equals("customresourcedefinitions");
    }

    /** The change a DELETE of {@code stored} with {@code opts} makes at {@code now}. */
    static Change decide(ResourceDefinition def, StoredObject stored, DeleteParams opts, boolean dryRun, Instant now) {
        ObjectNode cur = stored.object();
        JsonNode meta = cur.path("metadata");
        Long requested = opts.gracePeriodSeconds() == null
                ? null
                : opts.gracePeriodSeconds() < 0 ? 1L : opts.gracePeriodSeconds();
        ObjectNode next = cur.deepCopy();
        ObjectNode nextMeta = Metadata.metadata(next);
        boolean graceful = false;
        long grace = 0;
        if (meta.has("deletionTimestamp")) {
            long pending = meta.path("deletionGracePeriodSeconds").asLong(0);
            pending = pending < 0 ? 1 : pending;
            if (pending != 0) {
                if (requested == null || requested >= pending) {
                    return Change.keep(); // graceful deletion pending: only a shorter grace changes anything
                }
                Instant at = instant(meta.path("deletionTimestamp").asString(""), now)
                        .minusSeconds(pending)
                        .plusSeconds(requested);
                nextMeta.put("deletionTimestamp", ObjectSemantics.timestamp(at));
                nextMeta.put("deletionGracePeriodSeconds", requested);
                graceful = true;
                grace = requested;
            }
        } else if (isPod(def)) {
            grace = podGrace(cur, requested);
            nextMeta.put("deletionTimestamp", ObjectSemantics.timestamp(now.plusSeconds(grace)));
            nextMeta.put("deletionGracePeriodSeconds", grace);
            if (def.tracksGeneration()) {
                nextMeta.put("generation", nextMeta.path("generation").asLong(0) + 1);
            }
            graceful = true;
        }
        List<String> existing = ObjectSemantics.finalizers(cur);
        List<String> finalizers = new ArrayList<>(opts.finalizersAfter(existing, orphansByDefault(def)));
        if (isCrd(def) && !finalizers.contains(ObjectRegistry.CRD_CLEANUP_FINALIZER)) {
            finalizers.add(ObjectRegistry.CRD_CLEANUP_FINALIZER);
        }
        if (!finalizers.equals(existing)) {
            ArrayNode arr = nextMeta.putArray("finalizers");
            finalizers.forEach(arr::add);
        }
        boolean pendingFinalizers = !finalizers.isEmpty() || isNamespace(def);
        if (!graceful) {
            if (!pendingFinalizers) {
                return dryRun ? new Change.DryRun(cur, true) : Change.delete();
            }
            markAsDeleting(def, nextMeta, now);
            if (isNamespace(def)) {
                (next.get("status") instanceof ObjectNode s ? s : next.putObject("status")).put("phase", "Terminating");
            }
            if (ObjectSemantics.sameContent(cur, next)) {
                return Change.keep();
            }
            return dryRun ? new Change.DryRun(next, false) : Change.put(next);
        }
        if (!pendingFinalizers && grace == 0) {
            return dryRun ? new Change.DryRun(cur, true) : Change.delete();
        }
        return dryRun ? new Change.DryRun(next, false) : Change.put(next);
    }

    /** The Pod's grace: the requested one, else its spec's, else 30; 0 when unbound or terminated. */
    private static long podGrace(ObjectNode pod, Long requested) {
        String phase = pod.path("status").path("phase").asString("");
        if (pod.path("spec").path("nodeName").asString("").isEmpty()
                || phase.equals("Succeeded")
                || phase.equals("Failed")) {
            return 0;
        }
        if (requested != null) {
            return requested;
        }
        JsonNode spec = pod.path("spec").path("terminationGracePeriodSeconds");
        long g = spec.isNumber() ? spec.asLong() : DEFAULT_POD_GRACE_SECONDS;
        return g < 0 ? 1 : g;
    }

    /** The real store's {@code markAsDeleting}: timestamp now unless earlier, grace 0, generation + 1 on the first mark. */
    private static void markAsDeleting(ResourceDefinition def, ObjectNode meta, Instant now) {
        if (!meta.has("deletionTimestamp") && def.tracksGeneration()) {
            meta.put("generation", meta.path("generation").asLong(0) + 1);
        }
        if (!meta.has("deletionTimestamp")
                || instant(meta.path("deletionTimestamp").asString(""), now).isAfter(now)) {
            meta.put("deletionTimestamp", ObjectSemantics.timestamp(now));
        }
        meta.put("deletionGracePeriodSeconds", 0);
    }

    private static Instant instant(String text, Instant fallback) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return fallback;
        }
    }
}
