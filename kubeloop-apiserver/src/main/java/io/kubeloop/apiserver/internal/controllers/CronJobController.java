package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The CronJob controller, as kube-controller-manager's, on the server's clock: at each time its
 * {@link CronSchedule schedule} fires (in {@code spec.timeZone}, else UTC) a CronJob creates the Job
 * {@code <cronjob>-<minutes since the epoch>} from its {@code jobTemplate}, annotated with
 * {@code batch.kubernetes.io/cronjob-scheduled-timestamp} and controlled by it — only the latest missed time
 * runs, and none older than {@code startingDeadlineSeconds}; {@code concurrencyPolicy} {@code Forbid} skips a
 * time while a Job runs and {@code Replace} deletes the running ones first; {@code suspend} stops it. Status:
 * {@code active} (references to running Jobs), {@code lastScheduleTime}, {@code lastSuccessfulTime}. Finished
 * Jobs beyond {@code successfulJobsHistoryLimit} and {@code failedJobsHistoryLimit} are deleted, oldest first.
 *
 * <p>Driven by the CronJob and Job metadata informers and by a wake-up at the next scheduled time; one worker
 * syncs one CronJob at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class CronJobController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CronJobController.class);
    private static final String MANAGER = "kube-controller-manager";
    static final String SCHEDULED_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp";

    /** A CronJob to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition cronJobs;
    private volatile ResourceDefinition jobs;

    CronJobController(ObjectRegistry registry, Ticker clock, MetadataInformers informers, ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("cronjob", clock, this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("batch") && def.plural().equals("cronjobs")) {
            cronJobs = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    c -> Optional.of(
                            new Key(c.metadata().namespace(), c.metadata().name()))));
        } else if (def.group().equals("batch") && def.plural().equals("jobs")) {
            jobs = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    j -> Handlers.controller(j, "batch/v1", "CronJob")
                            .map(n -> new Key(j.metadata().namespace(), n))));
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (cronJobs == null || jobs == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> stored = WorkloadObjects.get(registry, cronJobs, key.namespace(), key.name());
            if (stored.isPresent() && !WorkloadObjects.deleting(stored.get().object())) {
                reconcile(key, stored.get().object());
            }
        });
    }

    private static boolean finished(JsonNode job, String type) {
        return WorkloadObjects.condition(job, type)
                .map(c -> c.path("status").asString("").equals("True"))
                .orElse(false);
    }

    private void reconcile(Key key, JsonNode cj) {
        Instant now = clock.instant();
        String uid = cj.path("metadata").path("uid").asString();
        List<JsonNode> owned = new ArrayList<>();
        for (StoredObject j : WorkloadObjects.list(registry, jobs, key.namespace())) {
            if (WorkloadObjects.controlledBy(j.object(), uid) && !WorkloadObjects.deleting(j.object())) {
                owned.add(j.object());
            }
        }
        owned.sort(Comparator.comparing(
                j -> j.path("metadata").path("creationTimestamp").asString("")));
        List<JsonNode> active = new ArrayList<>();
        List<JsonNode> succeeded = new ArrayList<>();
        List<JsonNode> failed = new ArrayList<>();
        for (JsonNode j : owned) {
            if (finished(j, "Complete")) {
                succeeded.add(j);
            } else if (finished(j, "Failed")) {
                failed.add(j);
            } else {
                active.add(j);
            }
        }
        ObjectNode status = cj.path("status").isObject()
                ? WorkloadObjects.copy(cj.path("status"))
                : KubeJson.mapper().createObjectNode();
        for (JsonNode j : succeeded) {
            String done = j.path("status").path("completionTime").asString("");
            if (done.compareTo(status.path("lastSuccessfulTime").asString("")) > 0) {
                status.put("lastSuccessfulTime", done);
            }
        }
        prune(key, succeeded, WorkloadObjects.intField(cj.path("spec"), "successfulJobsHistoryLimit", 3));
        prune(key, failed, WorkloadObjects.intField(cj.path("spec"), "failedJobsHistoryLimit", 1));

        Optional<CronSchedule> schedule = schedule(cj);
        ZoneId zone = zone(cj);
        if (schedule.isPresent() && !cj.path("spec").path("suspend").asBoolean(false)) {
            Instant since = WorkloadObjects.instant(status.path("lastScheduleTime"));
            if (since == null) {
                since = WorkloadObjects.instant(cj.path("metadata").path("creationTimestamp"));
            }
            Optional<ZonedDateTime> due = latestDue(schedule.get(), since.atZone(zone), now);
            if (due.isPresent()) {
                JsonNode deadline = cj.path("spec").path("startingDeadlineSeconds");
                boolean tooLate = deadline.isNumber()
                        && due.get().toInstant().plusSeconds(deadline.asLong()).isBefore(now);
                String policy = cj.path("spec").path("concurrencyPolicy").asString("Allow");
                if (!tooLate && !(policy.equals("Forbid") && !active.isEmpty())) {
                    if (policy.equals("Replace")) {
                        active.forEach(j -> deleteJob(key, j));
                        active.clear();
                    }
                    active.add(createJob(key, cj, due.get().toInstant()));
                    status.put(
                            "lastScheduleTime",
                            WorkloadObjects.timestamp(due.get().toInstant()));
                }
            }
            schedule.get()
                    .next(now.atZone(zone))
                    .ifPresent(next -> worker.queue()
                            .addAfter(
                                    key, Duration.between(now, next.toInstant()).plusMillis(100)));
        }
        Set<String> activeUids = new HashSet<>();
        active.forEach(j -> activeUids.add(j.path("metadata").path("uid").asString()));
        ArrayNode refs = KubeJson.mapper().createArrayNode();
        Set<String> listed = new HashSet<>();
        for (JsonNode ref : status.path("active")) {
            if (activeUids.contains(ref.path("uid").asString(""))) {
                refs.add(ref);
                listed.add(ref.path("uid").asString(""));
            }
        }
        for (JsonNode j : active) {
            if (!listed.contains(j.path("metadata").path("uid").asString())) {
                refs.addObject()
                        .put("kind", "Job")
                        .put("namespace", key.namespace())
                        .put("name", j.path("metadata").path("name").asString())
                        .put("uid", j.path("metadata").path("uid").asString())
                        .put("apiVersion", "batch/v1")
                        .put(
                                "resourceVersion",
                                j.path("metadata").path("resourceVersion").asString());
            }
        }
        if (refs.isEmpty()) {
            status.remove("active");
        } else {
            status.set("active", refs);
        }
        if (!status.equals(cj.path("status"))) {
            ObjectNode next = WorkloadObjects.copy(cj);
            next.set("status", status);
            registry.update(cronJobs, key.namespace(), key.name(), "status", next, WorkloadObjects.context(MANAGER));
        }
    }

    private static Optional<CronSchedule> schedule(JsonNode cj) {
        try {
            return Optional.of(
                    CronSchedule.parse(cj.path("spec").path("schedule").asString("")));
        } catch (IllegalArgumentException e) {
            LOG.debug(
                    "cronjob {}: unparseable schedule: {}",
                    cj.path("metadata").path("name").asString(),
                    e.getMessage());
            return Optional.empty();
        }
    }

    private static ZoneId zone(JsonNode cj) {
        String tz = cj.path("spec").path("timeZone").asString("");
        if (tz.isEmpty()) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(tz);
        } catch (DateTimeException e) {
            return ZoneOffset.UTC;
        }
    }

    /** The latest scheduled time after {@code since} and not after {@code now}, if any. */
    private static Optional<ZonedDateTime> latestDue(CronSchedule schedule, ZonedDateTime since, Instant now) {
        Optional<ZonedDateTime> latest = Optional.empty();
        Optional<ZonedDateTime> t = schedule.next(since);
        int steps = 0;
        while (t.isPresent() && !t.get().toInstant().isAfter(now) && steps++ < 100_000) {
            latest = t;
            t = schedule.next(t.get());
        }
        return latest;
    }

    private JsonNode createJob(Key key, JsonNode cj, Instant scheduled) {
        String name = key.name() + "-" + scheduled.getEpochSecond() / 60;
        JsonNode template = cj.path("spec").path("jobTemplate");
        ObjectNode job = KubeJson.mapper().createObjectNode();
        job.put("apiVersion", "batch/v1").put("kind", "Job");
        ObjectNode meta = job.putObject("metadata");
        meta.put("name", name);
        if (template.path("metadata").path("labels").isObject()) {
            meta.set("labels", template.path("metadata").path("labels").deepCopy());
        }
        ObjectNode annotations = template.path("metadata").path("annotations").isObject()
                ? WorkloadObjects.copy(template.path("metadata").path("annotations"))
                : meta.objectNode();
        annotations.put(SCHEDULED_ANNOTATION, WorkloadObjects.timestamp(scheduled));
        meta.set("annotations", annotations);
        meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("batch/v1", "CronJob", cj));
        job.set("spec", template.path("spec").deepCopy());
        try {
            JsonNode created = registry.create(jobs, key.namespace(), job, WorkloadObjects.context(MANAGER))
                    .object()
                    .object();
            events.normal(cj, "batch/v1", "CronJob", "cronjob-controller", "SuccessfulCreate", "Created job " + name);
            return created;
        } catch (AlreadyExistsException e) {
            return WorkloadObjects.get(registry, jobs, key.namespace(), name)
                    .map(StoredObject::object)
                    .map(j -> (JsonNode) j)
                    .orElseThrow(() -> e);
        }
    }

    private void prune(Key key, List<JsonNode> finished, int limit) {
        for (int i = 0; i < finished.size() - limit; i++) {
            deleteJob(key, finished.get(i));
        }
    }

    private void deleteJob(Key key, JsonNode job) {
        WorkloadObjects.deleteQuietly(registry, jobs, job, "Background", MANAGER);
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
