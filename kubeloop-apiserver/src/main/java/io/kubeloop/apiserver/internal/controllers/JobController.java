package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Job controller, as kube-controller-manager's: runs up to {@code parallelism} Pods at a time until
 * {@code completions} have succeeded (or, without {@code completions}, until one has and none runs), giving
 * each Pod of an {@code Indexed} Job its completion index; counts succeeded and failed Pods (and, for
 * {@code OnFailure} Pods, their containers' restarts) against {@code backoffLimit}, waiting kubelet-style
 * back-off (10 s doubling, at most 6 min) before replacing a failed Pod; ends the Job at
 * {@code activeDeadlineSeconds}; deletes its running Pods while it is {@code suspend}ed. Status:
 * {@code active}, {@code ready}, {@code terminating}, {@code succeeded}, {@code failed}, {@code startTime}, {@code completionTime},
 * {@code completedIndexes}, and the conditions {@code SuccessCriteriaMet} + {@code Complete} or
 * {@code FailureTarget} + {@code Failed} (reasons {@code CompletionsReached}, {@code BackoffLimitExceeded},
 * {@code DeadlineExceeded}) or {@code Suspended}, with kube-controller-manager's messages. A finished Job with
 * {@code ttlSecondsAfterFinished} is deleted (with its Pods) that long after it finished.
 *
 * <p>Driven by the Job and Pod metadata informers; one worker syncs one Job at a time, reading from storage.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class JobController implements AutoCloseable {

    private static final String MANAGER = "kube-controller-manager";
    static final String INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
    private static final Duration MAX_BACK_OFF = Duration.ofMinutes(6);

    /** A Job to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition jobs;
    private volatile ResourceDefinition pods;

    JobController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("job", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("batch") && def.plural().equals("jobs")) {
            jobs = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    j -> Optional.of(
                            new Key(j.metadata().namespace(), j.metadata().name()))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    p -> Handlers.controller(p, "batch/v1", "Job")
                            .map(n -> new Key(p.metadata().namespace(), n))));
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (jobs == null || pods == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, jobs, key.namespace(), key.name());
            if (stored.isPresent() && !WorkloadObjects.deleting(stored.get().object())) {
                reconcile(key, stored.get().object());
            }
        });
    }

    private static boolean finished(JsonNode job) {
        return conditionTrue(job, "Complete") || conditionTrue(job, "Failed");
    }

    private static boolean conditionTrue(JsonNode job, String type) {
        return WorkloadObjects.condition(job, type)
                .map(c -> c.path("status").asString("").equals("True"))
                .orElse(false);
    }

    private void reconcile(Key key, JsonNode job) {
        Instant now = clock.instant();
        if (finished(job)) {
            expire(key, job, now);
            return;
        }
        JsonNode spec = job.path("spec");
        String uid = job.path("metadata").path("uid").asString();
        List<JsonNode> owned = new ArrayList<>();
        for (StoredObject p : WorkloadObjects.list(registry, pods, key.namespace())) {
            if (WorkloadObjects.controlledBy(p.object(), uid)) {
                owned.add(p.object());
            }
        }
        List<JsonNode> active = owned.stream().filter(WorkloadObjects::active).toList();
        boolean indexed = spec.path("completionMode").asString("NonIndexed").equals("Indexed");
        TreeSet<Integer> succeededIndexes = new TreeSet<>();
        int succeeded = 0;
        int failed = 0;
        Instant lastFailure = null;
        for (JsonNode p : owned) {
            String phase = p.path("status").path("phase").asString("");
            if (phase.equals("Succeeded")) {
                succeeded++;
                index(p).ifPresent(succeededIndexes::add);
            } else if (phase.equals("Failed")) {
                failed++;
                Instant at = finishedAt(p);
                if (at != null && (lastFailure == null || at.isAfter(lastFailure))) {
                    lastFailure = at;
                }
            }
        }
        if (indexed) {
            succeeded = succeededIndexes.size();
        }
        int restarts = 0;
        if (spec.path("template")
                .path("spec")
                .path("restartPolicy")
                .asString("")
                .equals("OnFailure")) {
            for (JsonNode p : active) {
                for (JsonNode cs : p.path("status").path("containerStatuses")) {
                    restarts += cs.path("restartCount").asInt(0);
                }
            }
        }
        boolean hasCompletions = spec.path("completions").isNumber();
        int completions = WorkloadObjects.intField(spec, "completions", 1);
        int parallelism = WorkloadObjects.intField(spec, "parallelism", 1);
        int backoffLimit = WorkloadObjects.intField(spec, "backoffLimit", 6);
        boolean suspended = spec.path("suspend").asBoolean(false);

        ObjectNode status = job.path("status").isObject()
                ? WorkloadObjects.copy(job.path("status"))
                : KubeJson.mapper().createObjectNode();
        if (!suspended && !status.has("startTime")) {
            status.put("startTime", WorkloadObjects.timestamp(now));
        }
        String failure = null;
        String failureMessage = null;
        if (failed + restarts > backoffLimit) {
            failure = "BackoffLimitExceeded";
            failureMessage = "Job has reached the specified backoff limit";
        } else if (spec.path("activeDeadlineSeconds").isNumber() && status.has("startTime")) {
            Instant start = WorkloadObjects.instant(status.path("startTime"));
            Instant deadline =
                    start.plusSeconds(spec.path("activeDeadlineSeconds").asLong());
            if (!now.isBefore(deadline)) {
                failure = "DeadlineExceeded";
                failureMessage = "Job was active longer than specified deadline";
            } else {
                worker.queue().addAfter(key, Duration.between(now, deadline).plusMillis(10));
            }
        }
        boolean complete =
                failure == null && (hasCompletions ? succeeded >= completions : succeeded > 0 && active.isEmpty());
        Duration backOffLeft = Duration.ZERO;
        if (failure != null || complete || suspended) {
            for (JsonNode p : active) {
                deletePod(key, p);
            }
            active = List.of();
        } else {
            int want =
                    hasCompletions ? Math.min(parallelism, completions - succeeded) : succeeded > 0 ? 0 : parallelism;
            if (lastFailure != null && failed > 0) {
                Duration backOff = Duration.ofSeconds(10L << Math.min(failed - 1, 6));
                backOff = backOff.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : backOff;
                backOffLeft = Duration.between(now, lastFailure.plus(backOff));
            }
            if (active.size() < want && !backOffLeft.isPositive()) {
                TreeSet<Integer> taken = new TreeSet<>(succeededIndexes);
                active.forEach(p -> index(p).ifPresent(taken::add));
                for (int i = active.size(); i < want; i++) {
                    Integer idx = null;
                    if (indexed) {
                        idx = 0;
                        while (taken.contains(idx)) {
                            idx++;
                        }
                        if (idx >= completions) {
                            break;
                        }
                        taken.add(idx);
                    }
                    String created = registry.create(
                                    pods, key.namespace(), pod(job, idx), WorkloadObjects.context(MANAGER))
                            .object()
                            .name();
                    events.normal(
                            job, "batch/v1", "Job", "job-controller", "SuccessfulCreate", "Created pod: " + created);
                }
            } else if (backOffLeft.isPositive()) {
                worker.queue().addAfter(key, backOffLeft.plusMillis(10));
            }
        }
        int ready = (int) active.stream().filter(WorkloadObjects::ready).count();
        ReplicaSetController.putOrRemove(status, "active", active.size());
        ReplicaSetController.putOrRemove(status, "succeeded", succeeded);
        ReplicaSetController.putOrRemove(status, "failed", failed);
        status.put("ready", ready);
        status.put(
                "terminating",
                owned.stream()
                        .filter(p -> WorkloadObjects.deleting(p)
                                && !p.path("status").path("phase").asString("").equals("Succeeded")
                                && !p.path("status").path("phase").asString("").equals("Failed"))
                        .count());
        status.set("uncountedTerminatedPods", KubeJson.mapper().createObjectNode());
        if (indexed && !succeededIndexes.isEmpty()) {
            status.put("completedIndexes", ranges(succeededIndexes));
        }
        if (suspended) {
            jobCondition(status, "Suspended", "True", "JobSuspended", "Job suspended", now);
        } else if (WorkloadObjects.conditionIn(status, "Suspended").isPresent()) {
            jobCondition(status, "Suspended", "False", "JobResumed", "Job resumed", now);
        }
        if (complete) {
            String message = "Reached expected number of succeeded pods";
            jobCondition(status, "SuccessCriteriaMet", "True", "CompletionsReached", message, now);
            jobCondition(status, "Complete", "True", "CompletionsReached", message, now);
            events.normal(job, "batch/v1", "Job", "job-controller", "Completed", "Job completed");
            status.put("completionTime", WorkloadObjects.timestamp(now));
        } else if (failure != null) {
            jobCondition(status, "FailureTarget", "True", failure, failureMessage, now);
            jobCondition(status, "Failed", "True", failure, failureMessage, now);
            events.warning(job, "batch/v1", "Job", "job-controller", failure, failureMessage);
        }
        if (!status.equals(job.path("status"))) {
            ObjectNode next = WorkloadObjects.copy(job);
            next.set("status", status);
            registry.update(jobs, key.namespace(), key.name(), "status", next, WorkloadObjects.context(MANAGER));
        }
    }

    /** Deletes a finished Job once its {@code ttlSecondsAfterFinished} has passed. */
    private void expire(Key key, JsonNode job, Instant now) {
        JsonNode ttl = job.path("spec").path("ttlSecondsAfterFinished");
        if (!ttl.isNumber()) {
            return;
        }
        Instant finishedAt = WorkloadObjects.instant(job.path("status").path("completionTime"));
        if (finishedAt == null) {
            finishedAt = WorkloadObjects.condition(job, "Failed")
                    .map(c -> WorkloadObjects.instant(c.path("lastTransitionTime")))
                    .orElse(now);
        }
        Duration left = Duration.between(now, finishedAt.plusSeconds(ttl.asLong()));
        if (left.isPositive()) {
            worker.queue().addAfter(key, left.plusMillis(10));
            return;
        }
        registry.delete(
                jobs,
                key.namespace(),
                key.name(),
                DeleteParams.propagation(
                        "Background", job.path("metadata").path("uid").asString()),
                WorkloadObjects.context(MANAGER));
    }

    private void deletePod(Key key, JsonNode pod) {
        WorkloadObjects.deleteQuietly(registry, pods, pod, null, MANAGER);
    }

    /**
     * Sets a Job condition as kube-controller-manager does: unchanged when status, reason and message are the
     * same; otherwise replaced in place (or appended) with {@code lastProbeTime} and {@code lastTransitionTime}
     * now.
     */
    private static void jobCondition(
            ObjectNode status, String type, String value, String reason, String message, Instant now) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        ObjectNode next = KubeJson.mapper().createObjectNode();
        next.put("type", type)
                .put("status", value)
                .put("lastProbeTime", WorkloadObjects.timestamp(now))
                .put("lastTransitionTime", WorkloadObjects.timestamp(now))
                .put("reason", reason)
                .put("message", message);
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode c = conditions.get(i);
            if (c.path("type").asString("").equals(type)) {
                if (c.path("status").asString("").equals(value)
                        && c.path("reason").asString("").equals(reason)
                        && c.path("message").asString("").equals(message)) {
                    return;
                }
                conditions.set(i, next);
                return;
            }
        }
        conditions.add(next);
    }

    private static Optional<Integer> index(JsonNode pod) {
        String text =
                pod.path("metadata").path("annotations").path(INDEX_ANNOTATION).asString("");
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Instant finishedAt(JsonNode pod) {
        for (JsonNode cs : pod.path("status").path("containerStatuses")) {
            Instant at =
                    WorkloadObjects.instant(cs.path("state").path("terminated").path("finishedAt"));
            if (at != null) {
                return at;
            }
        }
        return null;
    }

    /** {@code 0-2,4} for {0, 1, 2, 4}. */
    static String ranges(TreeSet<Integer> indexes) {
        StringBuilder out = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int i : indexes) {
            if (start == null) {
                start = i;
            } else if (i != prev + 1) {
                out.append(out.isEmpty() ? "" : ",").append(start.equals(prev) ? "" + start : start + "-" + prev);
                start = i;
            }
            prev = i;
        }
        if (start != null) {
            out.append(out.isEmpty() ? "" : ",").append(start.equals(prev) ? "" + start : start + "-" + prev);
        }
        return out.toString();
    }

    private static ObjectNode pod(JsonNode job, Integer index) {
        JsonNode template = job.path("spec").path("template");
        String name = job.path("metadata").path("name").asString();
        ObjectNode pod = KubeJson.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", index == null ? name + "-" : name + "-" + index + "-");
        ObjectNode labels = template.path("metadata").path("labels").isObject()
                ? WorkloadObjects.copy(template.path("metadata").path("labels"))
                : meta.objectNode();
        ObjectNode annotations = template.path("metadata").path("annotations").isObject()
                ? WorkloadObjects.copy(template.path("metadata").path("annotations"))
                : meta.objectNode();
        ObjectNode spec = WorkloadObjects.copy(template.path("spec"));
        if (index != null) {
            labels.put(INDEX_ANNOTATION, Integer.toString(index));
            annotations.put(INDEX_ANNOTATION, Integer.toString(index));
            spec.put("hostname", name + "-" + index);
            for (JsonNode c : spec.path("containers")) {
                ObjectNode container = (ObjectNode) c;
                var env = container.get("env") instanceof ArrayNode a ? a : container.putArray("env");
                env.addObject()
                        .put("name", "JOB_COMPLETION_INDEX")
                        .putObject("valueFrom")
                        .putObject("fieldRef")
                        .put("apiVersion", "v1")
                        .put("fieldPath", "metadata.labels['" + INDEX_ANNOTATION + "']");
            }
        }
        if (!labels.isEmpty()) {
            meta.set("labels", labels);
        }
        if (!annotations.isEmpty()) {
            meta.set("annotations", annotations);
        }
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("batch/v1", "Job", job));
        pod.set("spec", spec);
        return pod;
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
