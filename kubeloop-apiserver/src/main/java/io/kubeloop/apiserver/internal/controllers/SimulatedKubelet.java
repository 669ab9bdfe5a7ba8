package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kubelets of the {@linkplain SimulatedNodes simulated Nodes}: a Pod bound to one of them is
 * {@code Pending} for {@link SimulatedCluster#podStartDelay()}, then {@code Running} with a Pod IP from its
 * Node's Pod CIDR, the Node's host IP, a start time, the conditions a kubelet reports
 * ({@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready}, {@code ContainersReady}) and a
 * status per container (running, ready, a containerd id and image id); init containers are reported
 * completed. A Pod that does not restart {@code Always} completes after its run time ({@code Succeeded},
 * containers terminated with reason {@code Completed}). The failure annotations of {@link SimulatedCluster}
 * make containers exit with a code ({@code Failed}, a restart for {@code OnFailure}, {@code CrashLoopBackOff}
 * with kubelet's back-off from 10 s doubling to 5 min for {@code Always}) or never become ready.
 *
 * <p>A terminating Pod (a DELETE gave it a grace period) stops like containers that exit on SIGTERM: it is
 * deleted (grace period 0, uid precondition) {@link SimulatedCluster#podStartDelay()} after the DELETE.
 * Pods bound to Nodes that are not simulated are left to the {@link PodTerminator}.
 *
 * <p>Driven by the Pod metadata informer; one worker handles one Pod at a time and alone touches its state.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class SimulatedKubelet implements AutoCloseable {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");
    private static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

    /** A Pod of one uid. */
    private record PodKey(String namespace, String name, String uid) {}

    private final ObjectRegistry registry;
    private final ClusterEvents events;
    private final Ticker clock;
    private final SimulatedCluster cluster;
    private final QueueWorker<PodKey> worker;
    /** Pod uid → when its current step (binding seen, containers started, DELETE seen) began; worker-confined. */
    private final Map<String, Instant> since = new HashMap<>();
    /** Uids of Pods whose DELETE the worker has seen; worker-confined. */
    private final Set<String> stopping = new HashSet<>();

    private volatile ResourceDefinition pods;
    private volatile ResourceDefinition nodes;

    SimulatedKubelet(
            ObjectRegistry registry,
            Ticker clock,
            SimulatedCluster cluster,
            MetadataInformers informers,
            ClusterEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.worker = new QueueWorker<>("kubelet", clock, this::handle);
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (!def.group().isEmpty()) {
            return;
        }
        if (def.plural().equals("nodes")) {
            nodes = def;
            return;
        }
        if (!def.plural().equals("pods")) {
            return;
        }
        pods = def;
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ObjectMetadata pod, boolean isInInitialList) {
                enqueue(pod);
            }

            @Override
            public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {
                enqueue(newPod);
            }

            @Override
            public void onDelete(ObjectMetadata pod, boolean finalStateUnknown) {
                enqueue(pod);
            }
        });
    }

    private void enqueue(ObjectMetadata pod) {
        worker.queue().add(new PodKey(pod.metadata().namespace(), pod.metadata().name(), pod.uid()));
    }

    void start() {
        worker.start();
    }

    private void handle(PodKey key) {
        ResourceDefinition def = pods;
        ResourceDefinition nodeDef = nodes;
        if (def == null || nodeDef == null) {
            return;
        }
        Optional<StoredObject> stored = WorkloadObjects.get(registry, def, key.namespace(), key.name())
                .filter(p ->
                        p.object().path("metadata").path("uid").asString("").equals(key.uid()));
        if (stored.isEmpty()) {
            forget(key.uid());
            return;
        }
        JsonNode pod = stored.get().object();
        String nodeName = pod.path("spec").path("nodeName").asString("");
        if (nodeName.isEmpty()) {
            return;
        }
        Optional<StoredObject> node = WorkloadObjects.get(registry, nodeDef, "", nodeName);
        if (node.isEmpty() || !SimulatedNodes.simulated(node.get().object())) {
            return;
        }
        try {
            if (WorkloadObjects.deleting(pod)) {
                stop(def, key, pod);
                return;
            }
            String phase = pod.path("status").path("phase").asString("");
            if (phase.equals("Succeeded") || phase.equals("Failed")) {
                forget(key.uid());
            } else if (!pod.path("status").has("containerStatuses")) {
                run(def, key, stored.get(), node.get().object());
            } else {
                progress(def, key, stored.get());
            }
        } catch (ConflictException e) {
            worker.queue().addAfter(key, Duration.ofMillis(50));
        } catch (NotFoundException e) {
            forget(key.uid());
        }
    }

    private void forget(String uid) {
        since.remove(uid);
        stopping.remove(uid);
    }

    /** How long until {@code step} after the current step began; zero or negative when due. */
    private Duration until(String uid, Duration step) {
        Instant now = clock.instant();
        Instant began = since.computeIfAbsent(uid, u -> now);
        return Duration.between(now, began.plus(step));
    }

    private void stop(ResourceDefinition def, PodKey key, JsonNode pod) {
        if (pod.path("metadata").path("deletionGracePeriodSeconds").asLong(0) <= 0) {
            return; // already being deleted at once (finalizers may hold it)
        }
        if (stopping.add(key.uid())) {
            since.put(key.uid(), clock.instant());
            for (JsonNode c : pod.path("spec").path("containers")) {
                events.kubelet(
                        pod,
                        pod.path("spec").path("nodeName").asString(),
                        "Killing",
                        "Stopping container " + c.path("name").asString());
            }
        }
        Duration left = until(key.uid(), cluster.podStartDelay());
        if (left.isPositive()) {
            worker.queue().addAfter(key, left);
            return;
        }
        registry.delete(
                def,
                key.namespace(),
                key.name(),
                new DeleteParams(null, null, key.uid(), null, 0L),
                WorkloadObjects.context("kubelet"));
    }

    private void run(ResourceDefinition def, PodKey key, StoredObject stored, JsonNode node) {
        Duration left = until(key.uid(), cluster.podStartDelay());
        if (left.isPositive()) {
            worker.queue().addAfter(key, left);
            return;
        }
        JsonNode pod = stored.object();
        Instant now = clock.instant();
        ObjectNode next = WorkloadObjects.copy(pod);
        ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
        String hostIp = internalIp(node);
        String podIp = pod.path("spec").path("hostNetwork").asBoolean(false) ? hostIp : allocateIp(def, node);
        status.put("phase", "Running");
        status.put("hostIP", hostIp);
        status.putArray("hostIPs").addObject().put("ip", hostIp);
        status.put("podIP", podIp);
        status.putArray("podIPs").addObject().put("ip", podIp);
        status.put("startTime", WorkloadObjects.timestamp(now));
        if (pod.path("spec").path("initContainers").isArray()) {
            ArrayNode inits = status.putArray("initContainerStatuses");
            for (JsonNode c : pod.path("spec").path("initContainers")) {
                ObjectNode cs = containerStatus(key.uid(), c, 0);
                cs.putObject("state")
                        .putObject("terminated")
                        .put("exitCode", 0)
                        .put("reason", "Completed")
                        .put("startedAt", WorkloadObjects.timestamp(now))
                        .put("finishedAt", WorkloadObjects.timestamp(now))
                        .put("containerID", cs.path("containerID").asString());
                cs.put("ready", true).put("started", false);
                inits.add(cs);
            }
        }
        boolean crash = restartsAlways(pod) && exitCode(pod) != 0;
        ArrayNode statuses = status.putArray("containerStatuses");
        for (JsonNode c : pod.path("spec").path("containers")) {
            ObjectNode cs = containerStatus(key.uid(), c, crash ? 1 : 0);
            if (crash) {
                crashLoop(cs, pod, c, now);
            } else {
                cs.putObject("state").putObject("running").put("startedAt", WorkloadObjects.timestamp(now));
                cs.put("ready", !notReady(pod)).put("started", true);
            }
            statuses.add(cs);
        }
        PodConditions.set(status, "PodReadyToStartContainers", "True", null, null, now);
        PodConditions.set(status, "Initialized", "True", null, null, now);
        readiness(status, pod, now);
        order(status);
        registry.update(def, key.namespace(), key.name(), "status", next, WorkloadObjects.context("kubelet"));
        since.put(key.uid(), now);
        String host = node.path("metadata").path("name").asString();
        for (JsonNode c : pod.path("spec").path("containers")) {
            String name = c.path("name").asString();
            events.kubelet(
                    pod,
                    host,
                    "Pulled",
                    "Container image \"" + c.path("image").asString() + "\" already present on machine");
            events.kubelet(pod, host, "Created", "Created container: " + name);
            events.kubelet(pod, host, "Started", "Started container " + name);
        }
        if (crash) {
            worker.queue().addAfter(key, backOff(1));
        } else if (!restartsAlways(pod)) {
            worker.queue().addAfter(key, runTime(pod));
        }
    }

    private void progress(ResourceDefinition def, PodKey key, StoredObject stored) {
        JsonNode pod = stored.object();
        int restarts = pod.path("status")
                .path("containerStatuses")
                .path(0)
                .path("restartCount")
                .asInt(0);
        boolean crash = exitCode(pod) != 0;
        if (restartsAlways(pod)) {
            if (!crash) {
                return;
            }
            Duration left = until(key.uid(), backOff(restarts));
            if (left.isPositive()) {
                worker.queue().addAfter(key, left);
                return;
            }
            Instant now = clock.instant();
            ObjectNode next = WorkloadObjects.copy(pod);
            for (JsonNode cs : next.path("status").path("containerStatuses")) {
                ((ObjectNode) cs).put("restartCount", restarts + 1);
                crashLoop(
                        (ObjectNode) cs,
                        pod,
                        containerNamed(pod, cs.path("name").asString()),
                        now);
            }
            registry.update(def, key.namespace(), key.name(), "status", next, WorkloadObjects.context("kubelet"));
            since.put(key.uid(), now);
            worker.queue().addAfter(key, backOff(restarts + 1));
            return;
        }
        Duration left = until(key.uid(), runTime(pod));
        if (left.isPositive()) {
            worker.queue().addAfter(key, left);
            return;
        }
        Instant now = clock.instant();
        int code = exitCode(pod);
        ObjectNode next = WorkloadObjects.copy(pod);
        ObjectNode status = (ObjectNode) next.get("status");
        boolean onFailure = pod.path("spec").path("restartPolicy").asString("").equals("OnFailure");
        if (code != 0 && onFailure) {
            for (JsonNode cs : status.path("containerStatuses")) {
                ObjectNode c = (ObjectNode) cs;
                String started =
                        c.path("state").path("running").path("startedAt").asString(WorkloadObjects.timestamp(now));
                c.putObject("lastState").set("terminated", terminated(code, "Error", started, now, c));
                c.put("restartCount", c.path("restartCount").asInt(0) + 1);
                c.putObject("state").putObject("running").put("startedAt", WorkloadObjects.timestamp(now));
            }
            registry.update(def, key.namespace(), key.name(), "status", next, WorkloadObjects.context("kubelet"));
            since.put(key.uid(), now);
            worker.queue().addAfter(key, runTime(pod));
            return;
        }
        String reason = code == 0 ? "Completed" : "Error";
        for (JsonNode cs : status.path("containerStatuses")) {
            ObjectNode c = (ObjectNode) cs;
            String started = c.path("state").path("running").path("startedAt").asString(WorkloadObjects.timestamp(now));
            c.putObject("state").set("terminated", terminated(code, reason, started, now, c));
            c.put("ready", false).put("started", false);
        }
        String podReason = code == 0 ? "PodCompleted" : "PodFailed";
        status.put("phase", code == 0 ? "Succeeded" : "Failed");
        PodConditions.set(status, "PodReadyToStartContainers", "False", null, null, now);
        PodConditions.set(status, "Ready", "False", podReason, null, now);
        PodConditions.set(status, "ContainersReady", "False", podReason, null, now);
        registry.update(def, key.namespace(), key.name(), "status", next, WorkloadObjects.context("kubelet"));
        forget(key.uid());
    }

    private static ObjectNode terminated(int code, String reason, String startedAt, Instant now, ObjectNode cs) {
        ObjectNode t = JsonNodeFactory.instance.objectNode();
        t.put("exitCode", code)
                .put("reason", reason)
                .put("startedAt", startedAt)
                .put("finishedAt", WorkloadObjects.timestamp(now))
                .put("containerID", cs.path("containerID").asString(""));
        return t;
    }

    private static JsonNode containerNamed(JsonNode pod, String name) {
        for (JsonNode c : pod.path("spec").path("containers")) {
            if (c.path("name").asString("").equals(name)) {
                return c;
            }
        }
        return MissingNode.getInstance();
    }

    private void crashLoop(ObjectNode cs, JsonNode pod, JsonNode container, Instant now) {
        int restarts = cs.path("restartCount").asInt(1);
        String name = container.path("name").asString("");
        cs.putObject("lastState")
                .set("terminated", terminated(exitCode(pod), "Error", WorkloadObjects.timestamp(now), now, cs));
        cs.putObject("state")
                .putObject("waiting")
                .put("reason", "CrashLoopBackOff")
                .put(
                        "message",
                        "back-off " + backOff(restarts).toSeconds() + "s restarting failed container=" + name + " pod="
                                + pod.path("metadata").path("name").asString() + "_"
                                + pod.path("metadata").path("namespace").asString() + "("
                                + pod.path("metadata").path("uid").asString() + ")");
        cs.put("ready", false).put("started", false);
    }

    private static Duration backOff(int restarts) {
        long seconds = 10L << Math.min(Math.max(restarts - 1, 0), 5);
        Duration d = Duration.ofSeconds(seconds);
        return d.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : d;
    }

    private void readiness(ObjectNode status, JsonNode pod, Instant now) {
        StringBuilder unready = new StringBuilder();
        for (JsonNode cs : status.path("containerStatuses")) {
            if (!cs.path("ready").asBoolean(false)) {
                unready.append(unready.isEmpty() ? "" : " ")
                        .append(cs.path("name").asString());
            }
        }
        if (unready.isEmpty()) {
            PodConditions.set(status, "Ready", "True", null, null, now);
            PodConditions.set(status, "ContainersReady", "True", null, null, now);
        } else {
            String message = "containers with unready status: [" + unready + "]";
            PodConditions.set(status, "Ready", "False", "ContainersNotReady", message, now);
            PodConditions.set(status, "ContainersReady", "False", "ContainersNotReady", message, now);
        }
    }

    /** Puts the conditions in the order a kubelet reports them. */
    private static void order(ObjectNode status) {
        List<String> order =
                List.of("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled");
        ArrayNode sorted = status.arrayNode();
        for (String type : order) {
            for (JsonNode c : status.path("conditions")) {
                if (c.path("type").asString("").equals(type)) {
                    sorted.add(c);
                }
            }
        }
        for (JsonNode c : status.path("conditions")) {
            if (!order.contains(c.path("type").asString(""))) {
                sorted.add(c);
            }
        }
        status.set("conditions", sorted);
    }

    private ObjectNode containerStatus(String podUid, JsonNode container, int restarts) {
        String name = container.path("name").asString("");
        String image = normalizedImage(container.path("image").asString(""));
        ObjectNode cs = JsonNodeFactory.instance.objectNode();
        cs.put("name", name);
        cs.putObject("state");
        cs.putObject("lastState");
        cs.put("ready", false);
        cs.put("restartCount", restarts);
        cs.put("image", image);
        cs.put("imageID", repository(image) + "@sha256:" + sha256(image));
        cs.put("containerID", "containerd://" + sha256(podUid + "/" + name + "/" + restarts));
        return cs;
    }

    /** A reference as containerd reports it: {@code nginx} → {@code docker.io/library/nginx:latest}. */
    static String normalizedImage(String image) {
        String ref = image;
        int slash = ref.indexOf('/');
        String first = slash < 0 ? "" : ref.substring(0, slash);
        boolean hasRegistry = slash >= 0 && (first.contains(".") || first.contains(":") || first.equals("localhost"));
        if (!hasRegistry) {
            ref = "docker.io/" + (slash < 0 ? "library/" : "") + ref;
        }
        String last = ref.substring(ref.lastIndexOf('/') + 1);
        if (!last.contains(":") && !ref.contains("@")) {
            ref = ref + ":latest";
        }
        return ref;
    }

    private static String repository(String normalized) {
        int at = normalized.indexOf('@');
        String ref = at < 0 ? normalized : normalized.substring(0, at);
        int colon = ref.lastIndexOf(':');
        return colon > ref.lastIndexOf('/') ? ref.substring(0, colon) : ref;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String internalIp(JsonNode node) {
        for (JsonNode a : node.path("status").path("addresses")) {
            if (a.path("type").asString("").equals("InternalIP")) {
                return a.path("address").asString();
            }
        }
        return "172.18.0.2";
    }

    private String allocateIp(ResourceDefinition def, JsonNode node) {
        String cidr = node.path("spec").path("podCIDR").asString("10.244.0.0/24");
        String prefix = cidr.substring(0, cidr.lastIndexOf('.') + 1);
        String nodeName = node.path("metadata").path("name").asString();
        Set<String> used = new HashSet<>();
        for (StoredObject p : WorkloadObjects.list(registry, def, null)) {
            if (p.object().path("spec").path("nodeName").asString("").equals(nodeName)
                    && WorkloadObjects.active(p.object())) {
                used.add(p.object().path("status").path("podIP").asString(""));
            }
        }
        for (int i = 2; i < 255; i++) {
            if (!used.contains(prefix + i)) {
                return prefix + i;
            }
        }
        return prefix + "254";
    }

    private static boolean restartsAlways(JsonNode pod) {
        return pod.path("spec").path("restartPolicy").asString("Always").equals("Always");
    }

    private static boolean notReady(JsonNode pod) {
        return annotation(pod, SimulatedCluster.NOT_READY_ANNOTATION).equals("true");
    }

    private static int exitCode(JsonNode pod) {
        try {
            return Integer.parseInt(
                    annotation(pod, SimulatedCluster.EXIT_CODE_ANNOTATION).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private Duration runTime(JsonNode pod) {
        Matcher m = DURATION.matcher(
                annotation(pod, SimulatedCluster.RUN_TIME_ANNOTATION).trim());
        if (!m.matches()) {
            return cluster.podRunTime();
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    private static String annotation(JsonNode pod, String name) {
        return pod.path("metadata").path("annotations").path(name).asString("");
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
