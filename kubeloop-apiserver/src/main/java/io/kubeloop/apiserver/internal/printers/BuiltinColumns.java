package io.kubeloop.apiserver.internal.printers;

import io.kubeloop.apiserver.internal.registry.JsonPaths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Table columns of the built-in resources, after {@code Name}: a faithful subset of the real server's
 * printers ({@code pkg/printers/internalversion}). Priority 1 columns appear with {@code -o wide}.
 *
 * <p>Stateless and thread-safe.
 */
public final class BuiltinColumns {

    private BuiltinColumns() {}

    /** The Age column: time since creation, as kubectl prints it. */
    public static PrinterColumn age() {
        return new PrinterColumn(
                "Age",
                "string",
                "",
                "CreationTimestamp is a timestamp representing the server time " + "when this object was created.",
                0,
                o -> HumanDuration.since(text(o, ".metadata.creationTimestamp"), Instant.now()));
    }

    static String text(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? "" : n.isValueNode() ? n.asString() : n.toString();
    }

    static long number(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? 0 : n.asLong();
    }

    static int size(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? 0 : n.size();
    }

    static PrinterColumn col(String name, int priority, Function<ObjectNode, Object> f) {
        return PrinterColumn.string(name, priority, f);
    }

    static PrinterColumn intCol(String name, Function<ObjectNode, Object> f) {
        return new PrinterColumn(name, "integer", "", name, 0, f);
    }

    static String orNone(String s) {
        return s == null || s.isEmpty() ? "<none>" : s;
    }

    static String selector(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        if (n == null) {
            return "<none>";
        }
        JsonNode labels = n.has("matchLabels") ? n.get("matchLabels") : n;
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : labels.properties()) {
            if (e.getValue().isValueNode()) {
                parts.add(e.getKey() + "=" + e.getValue().asString());
            }
        }
        return parts.isEmpty() ? "<none>" : String.join(",", parts);
    }

    private static String containers(ObjectNode o, String path, String field) {
        JsonNode cs = JsonPaths.get(o, path);
        List<String> out = new ArrayList<>();
        if (cs != null) {
            cs.forEach(c -> out.add(c.path(field).asString("")));
        }
        return String.join(",", out);
    }

    /** The columns for a built-in resource (after Name). */
    public static List<PrinterColumn> forResource(String plural) {
        return switch (plural) {
            case "pods" ->
                List.of(
                        col("Ready", 0, o -> {
                            JsonNode st = JsonPaths.get(o, ".status.containerStatuses");
                            long ready = 0;
                            if (st != null) {
                                for (JsonNode c : st) {
                                    ready += c.path("ready").asBoolean(false) ? 1 : 0;
                                }
                            }
                            return ready + "/" + size(o, ".spec.containers");
                        }),
                        col("Status", 0, BuiltinColumns::podStatus),
                        new PrinterColumn(
                                "Restarts",
                                "string",
                                "",
                                "The number of times the containers in this pod have been restarted and when the last"
                                        + " container in this pod has restarted.",
                                0,
                                BuiltinColumns::podRestarts),
                        age(),
                        col("IP", 1, o -> orNone(text(o, ".status.podIP"))),
                        col("Node", 1, o -> orNone(text(o, ".spec.nodeName"))),
                        col("Nominated Node", 1, o -> orNone(text(o, ".status.nominatedNodeName"))),
                        col("Readiness Gates", 1, o -> "<none>"));
            case "namespaces" -> List.of(col("Status", 0, o -> text(o, ".status.phase")), age());
            case "configmaps" -> List.of(intCol("Data", o -> (long) size(o, ".data") + size(o, ".binaryData")), age());
            case "secrets" ->
                List.of(col("Type", 0, o -> text(o, ".type")), intCol("Data", o -> (long) size(o, ".data")), age());
            case "services" ->
                List.of(
                        col("Type", 0, o -> text(o, ".spec.type").isEmpty() ? "ClusterIP" : text(o, ".spec.type")),
                        col("Cluster-IP", 0, o -> orNone(text(o, ".spec.clusterIP"))),
                        col("External-IP", 0, o -> "<none>"),
                        col("Port(s)", 0, o -> {
                            JsonNode ports = JsonPaths.get(o, ".spec.ports");
                            List<String> out = new ArrayList<>();
                            if (ports != null) {
                                ports.forEach(p -> out.add(p.path("port").asLong() + "/"
                                        + p.path("protocol").asString("TCP")));
                            }
                            return out.isEmpty() ? "<none>" : String.join(",", out);
                        }),
                        age(),
                        col("Selector", 1, o -> selector(o, ".spec.selector")));
            case "deployments" ->
                List.of(
                        col("Ready", 0, o -> number(o, ".status.readyReplicas") + "/" + number(o, ".spec.replicas")),
                        intCol("Up-to-date", o -> number(o, ".status.updatedReplicas")),
                        intCol("Available", o -> number(o, ".status.availableReplicas")),
                        age(),
                        containersCol(),
                        imagesCol(),
                        col("Selector", 1, o -> selector(o, ".spec.selector")));
            case "replicasets" ->
                List.of(
                        intCol("Desired", o -> number(o, ".spec.replicas")),
                        intCol("Current", o -> number(o, ".status.replicas")),
                        intCol("Ready", o -> number(o, ".status.readyReplicas")),
                        age(),
                        containersCol(),
                        imagesCol(),
                        col("Selector", 1, o -> selector(o, ".spec.selector")));
            case "statefulsets" ->
                List.of(
                        col("Ready", 0, o -> number(o, ".status.readyReplicas") + "/" + number(o, ".spec.replicas")),
                        age(),
                        containersCol(),
                        imagesCol());
            case "daemonsets" ->
                List.of(
                        intCol("Desired", o -> number(o, ".status.desiredNumberScheduled")),
                        intCol("Current", o -> number(o, ".status.currentNumberScheduled")),
                        intCol("Ready", o -> number(o, ".status.numberReady")),
                        intCol("Up-to-date", o -> number(o, ".status.updatedNumberScheduled")),
                        intCol("Available", o -> number(o, ".status.numberAvailable")),
                        col("Node Selector", 0, o -> selector(o, ".spec.template.spec.nodeSelector")),
                        age(),
                        containersCol(),
                        imagesCol());
            case "jobs" ->
                List.of(
                        col(
                                "Status",
                                0,
                                o -> number(o, ".status.succeeded") >= Math.max(1, number(o, ".spec.completions"))
                                        ? "Complete"
                                        : "Running"),
                        col(
                                "Completions",
                                0,
                                o -> number(o, ".status.succeeded") + "/"
                                        + Math.max(1, number(o, ".spec.completions"))),
                        col("Duration", 0, o -> "<unknown>"),
                        age());
            case "cronjobs" ->
                List.of(
                        col("Schedule", 0, o -> text(o, ".spec.schedule")),
                        col("Timezone", 0, o -> orNone(text(o, ".spec.timeZone"))),
                        col(
                                "Suspend",
                                0,
                                o -> Boolean.toString(JsonPaths.get(o, ".spec.suspend") != null
                                        && JsonPaths.get(o, ".spec.suspend").asBoolean())),
                        intCol("Active", o -> (long) size(o, ".status.active")),
                        col(
                                "Last Schedule",
                                0,
                                o -> text(o, ".status.lastScheduleTime").isEmpty()
                                        ? "<none>"
                                        : HumanDuration.since(text(o, ".status.lastScheduleTime"), Instant.now())),
                        age());
            case "nodes" ->
                List.of(
                        col("Status", 0, BuiltinColumns::nodeStatus),
                        col("Roles", 0, BuiltinColumns::nodeRoles),
                        age(),
                        col("Version", 0, o -> text(o, ".status.nodeInfo.kubeletVersion")),
                        col("Internal-IP", 1, o -> nodeAddress(o, "InternalIP")),
                        col("External-IP", 1, o -> nodeAddress(o, "ExternalIP")),
                        col("OS-Image", 1, o -> orUnknown(text(o, ".status.nodeInfo.osImage"))),
                        col("Kernel-Version", 1, o -> orUnknown(text(o, ".status.nodeInfo.kernelVersion"))),
                        col(
                                "Container-Runtime",
                                1,
                                o -> orUnknown(text(o, ".status.nodeInfo.containerRuntimeVersion"))));
            case "serviceaccounts" -> List.of(intCol("Secrets", o -> (long) size(o, ".secrets")), age());
            case "horizontalpodautoscalers" ->
                List.of(
                        col(
                                "Reference",
                                0,
                                o -> text(o, ".spec.scaleTargetRef.kind") + "/" + text(o, ".spec.scaleTargetRef.name")),
                        col("Targets", 0, BuiltinColumns::hpaTargets),
                        intCol(
                                "MinPods",
                                o -> JsonPaths.get(o, ".spec.minReplicas") == null
                                        ? 1
                                        : number(o, ".spec.minReplicas")),
                        intCol("MaxPods", o -> number(o, ".spec.maxReplicas")),
                        intCol("Replicas", o -> number(o, ".status.currentReplicas")),
                        age());
            case "controllerrevisions" ->
                List.of(
                        col("Controller", 0, o -> {
                            for (JsonNode r : o.path("metadata").path("ownerReferences")) {
                                if (r.path("controller").asBoolean(false)) {
                                    String group =
                                            r.path("apiVersion").asString("").contains("/")
                                                    ? "."
                                                            + r.path("apiVersion")
                                                                    .asString()
                                                                    .split("/", 2)[0]
                                                    : "";
                                    return r.path("kind").asString().toLowerCase(Locale.ROOT) + group + "/"
                                            + r.path("name").asString();
                                }
                            }
                            return "<none>";
                        }),
                        intCol("Revision", o -> number(o, ".revision")),
                        age());
            case "priorityclasses" ->
                List.of(
                        intCol("Value", o -> number(o, ".value")),
                        col(
                                "Global-Default",
                                0,
                                o -> Boolean.toString(o.path("globalDefault").asBoolean(false))),
                        age(),
                        col("PreemptionPolicy", 0, o -> text(o, ".preemptionPolicy")));
            case "events" -> eventColumns();
            case "leases" -> List.of(col("Holder", 0, o -> text(o, ".spec.holderIdentity")), age());
            case "poddisruptionbudgets" ->
                List.of(
                        col(
                                "Min Available",
                                0,
                                o -> orNone(text(o, ".spec.minAvailable")).replace("<none>", "N/A")),
                        col(
                                "Max Unavailable",
                                0,
                                o -> orNone(text(o, ".spec.maxUnavailable")).replace("<none>", "N/A")),
                        intCol("Allowed Disruptions", o -> number(o, ".status.disruptionsAllowed")),
                        age());
            case "roles", "clusterroles" ->
                List.of(new PrinterColumn(
                        "Created At", "date", "", "CreationTimestamp", 0, o -> text(o, ".metadata.creationTimestamp")));
            case "rolebindings", "clusterrolebindings" ->
                List.of(
                        col("Role", 0, o -> text(o, ".roleRef.kind") + "/" + text(o, ".roleRef.name")),
                        age(),
                        col("Users", 1, o -> subjects(o, "User")),
                        col("Groups", 1, o -> subjects(o, "Group")),
                        col("ServiceAccounts", 1, o -> subjects(o, "ServiceAccount")));
            case "customresourcedefinitions" ->
                List.of(new PrinterColumn(
                        "Created At", "date", "", "CreationTimestamp", 0, o -> text(o, ".metadata.creationTimestamp")));
            default -> NetworkStorageColumns.forResource(plural).orElseGet(() -> List.of(age()));
        };
    }

    /** A binding's subjects of {@code kind}, comma-separated ({@code namespace/name} for ServiceAccounts). */
    private static String subjects(ObjectNode o, String kind) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : o.path("subjects")) {
            if (s.path("kind").asString("").equals(kind)) {
                String ns = s.path("namespace").asString("");
                out.add(
                        kind.equals("ServiceAccount")
                                ? ns + "/" + s.path("name").asString("")
                                : s.path("name").asString(""));
            }
        }
        return String.join(", ", out);
    }

    /**
     * kube-apiserver's Event columns: Last Seen, Type, Reason, Object, Message shown; Subobject, Source,
     * First Seen, Count and the Name (last, not first) with priority 1. Read from core/v1 fields, falling back
     * to events.k8s.io/v1's ({@code regarding}, {@code note}, {@code reportingController}...).
     */
    private static List<PrinterColumn> eventColumns() {
        return List.of(
                col(
                        "Last Seen",
                        0,
                        o -> HumanDuration.since(
                                first(
                                        o,
                                        ".lastTimestamp",
                                        ".deprecatedLastTimestamp",
                                        ".eventTime",
                                        ".metadata.creationTimestamp"),
                                Instant.now())),
                col("Type", 0, o -> text(o, ".type")),
                col("Reason", 0, o -> text(o, ".reason")),
                col(
                        "Object",
                        0,
                        o -> first(o, ".involvedObject.kind", ".regarding.kind").toLowerCase(Locale.ROOT) + "/"
                                + first(o, ".involvedObject.name", ".regarding.name")),
                col("Subobject", 1, o -> first(o, ".involvedObject.fieldPath", ".regarding.fieldPath")),
                col("Source", 1, o -> {
                    String component =
                            first(o, ".source.component", ".deprecatedSource.component", ".reportingController");
                    String host = first(o, ".source.host", ".deprecatedSource.host");
                    return host.isEmpty() ? component : component + ", " + host;
                }),
                col("Message", 0, o -> first(o, ".message", ".note")),
                col(
                        "First Seen",
                        1,
                        o -> HumanDuration.since(
                                first(
                                        o,
                                        ".firstTimestamp",
                                        ".deprecatedFirstTimestamp",
                                        ".eventTime",
                                        ".metadata.creationTimestamp"),
                                Instant.now())),
                col("Count", 1, o -> {
                    String count = first(o, ".count", ".deprecatedCount", ".series.count");
                    return count.isEmpty() ? "1" : count;
                }),
                new PrinterColumn("Name", "string", "name", "Name of the event.", 1, o -> text(o, ".metadata.name")));
    }

    /** The first non-empty text at one of {@code paths}, or {@code ""}. */
    private static String first(ObjectNode o, String... paths) {
        for (String p : paths) {
            String t = text(o, p);
            if (!t.isEmpty() && !t.equals("null")) {
                return t;
            }
        }
        return "";
    }

    /**
     * The STATUS cell of a Pod, as kubectl's pod printer makes it: the phase (or {@code status.reason}), replaced
     * by the first unfinished init container's state ({@code Init:<reason>} or {@code Init:N/M}), else by the
     * last container that is waiting or terminated with a reason ({@code CrashLoopBackOff}, {@code Completed},
     * {@code Error}); {@code Completed} while another container still runs reads {@code Running} (or
     * {@code NotReady}); a Pod being deleted reads {@code Terminating}.
     */
    static String podStatus(ObjectNode pod) {
        JsonNode status = pod.path("status");
        String reason = orPending(status.path("phase").asString(""));
        if (!status.path("reason").asString("").isEmpty()) {
            reason = status.path("reason").asString();
        }
        boolean initializing = false;
        JsonNode inits = status.path("initContainerStatuses");
        for (int i = 0; i < inits.size(); i++) {
            JsonNode c = inits.get(i);
            JsonNode terminated = c.path("state").path("terminated");
            JsonNode waiting = c.path("state").path("waiting");
            if (terminated.isObject() && terminated.path("exitCode").asInt(0) == 0) {
                continue;
            }
            initializing = true;
            if (terminated.isObject()) {
                reason = "Init:"
                        + (terminated.path("reason").asString("").isEmpty()
                                ? "ExitCode:" + terminated.path("exitCode").asInt()
                                : terminated.path("reason").asString());
            } else if (waiting.isObject()
                    && !waiting.path("reason").asString("").isEmpty()
                    && !waiting.path("reason").asString("").equals("PodInitializing")) {
                reason = "Init:" + waiting.path("reason").asString();
            } else {
                reason = "Init:" + i + "/"
                        + pod.path("spec").path("initContainers").size();
            }
            break;
        }
        if (!initializing) {
            boolean running = false;
            JsonNode containers = status.path("containerStatuses");
            for (int i = containers.size() - 1; i >= 0; i--) {
                JsonNode c = containers.get(i);
                JsonNode terminated = c.path("state").path("terminated");
                String waiting = c.path("state").path("waiting").path("reason").asString("");
                if (!waiting.isEmpty()) {
                    reason = waiting;
                } else if (terminated.isObject()
                        && !terminated.path("reason").asString("").isEmpty()) {
                    reason = terminated.path("reason").asString();
                } else if (terminated.isObject()) {
                    reason = "ExitCode:" + terminated.path("exitCode").asInt();
                } else if (c.path("ready").asBoolean(false) && c.path("state").has("running")) {
                    running = true;
                }
            }
            if (reason.equals("Completed") && running) {
                boolean ready = false;
                for (JsonNode cond : status.path("conditions")) {
                    ready |= cond.path("type").asString("").equals("Ready")
                            && cond.path("status").asString("").equals("True");
                }
                reason = ready ? "Running" : "NotReady";
            }
        }
        if (pod.path("metadata").has("deletionTimestamp")) {
            reason = status.path("reason").asString("").equals("NodeLost") ? "Unknown" : "Terminating";
        }
        return reason;
    }

    /** The RESTARTS cell of a Pod: the containers' restarts, with how long ago the last one ended ({@code 2 (5s ago)}). */
    static String podRestarts(ObjectNode pod) {
        long restarts = 0;
        String last = "";
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            restarts += c.path("restartCount").asLong(0);
            String finished =
                    c.path("lastState").path("terminated").path("finishedAt").asString("");
            if (finished.compareTo(last) > 0) {
                last = finished;
            }
        }
        return restarts != 0 && !last.isEmpty()
                ? restarts + " (" + HumanDuration.since(last, Instant.now()) + " ago)"
                : Long.toString(restarts);
    }

    /** The TARGETS cell of a HorizontalPodAutoscaler: each metric's current and target, as kubectl shows them. */
    private static String hpaTargets(ObjectNode o) {
        List<String> out = new ArrayList<>();
        JsonNode current = o.path("status").path("currentMetrics");
        int i = 0;
        for (JsonNode m : o.path("spec").path("metrics")) {
            if (!m.path("type").asString("").equals("Resource")) {
                out.add("<unknown>/<unknown>");
                i++;
                continue;
            }
            JsonNode target = m.path("resource").path("target");
            String name = m.path("resource").path("name").asString("");
            JsonNode now = current.path(i).path("resource").path("current");
            String have = now.has("averageUtilization")
                    ? now.path("averageUtilization").asInt() + "%"
                    : now.has("averageValue") ? now.path("averageValue").asString() : "<unknown>";
            String want = target.has("averageUtilization")
                    ? target.path("averageUtilization").asInt() + "%"
                    : target.path("averageValue").asString(target.path("value").asString("<unknown>"));
            out.add(name + ": " + have + "/" + want);
            i++;
        }
        return out.isEmpty() ? "<none>" : String.join(", ", out);
    }

    /** A Node's STATUS cell: its Ready condition as Ready, NotReady or Unknown, and SchedulingDisabled when cordoned. */
    private static String nodeStatus(ObjectNode node) {
        String status = "Unknown";
        for (JsonNode c : node.path("status").path("conditions")) {
            if (c.path("type").asString("").equals("Ready")) {
                status = switch (c.path("status").asString("")) {
                    case "True" -> "Ready";
                    case "False" -> "NotReady";
                    default -> "Unknown";
                };
            }
        }
        return node.path("spec").path("unschedulable").asBoolean(false) ? status + ",SchedulingDisabled" : status;
    }

    /** A Node's ROLES cell: from its {@code node-role.kubernetes.io/<role>} and {@code kubernetes.io/role} labels. */
    private static String nodeRoles(ObjectNode node) {
        TreeSet<String> roles = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e :
                node.path("metadata").path("labels").properties()) {
            if (e.getKey().startsWith("node-role.kubernetes.io/")) {
                String role = e.getKey().substring("node-role.kubernetes.io/".length());
                if (!role.isEmpty()) {
                    roles.add(role);
                }
            } else if (e.getKey().equals("kubernetes.io/role")
                    && !e.getValue().asString("").isEmpty()) {
                roles.add(e.getValue().asString(""));
            }
        }
        return roles.isEmpty() ? "<none>" : String.join(",", roles);
    }

    private static String nodeAddress(ObjectNode node, String type) {
        for (JsonNode a : node.path("status").path("addresses")) {
            if (a.path("type").asString("").equals(type)) {
                return a.path("address").asString("<none>");
            }
        }
        return "<none>";
    }

    private static String orUnknown(String s) {
        return s.isEmpty() ? "<unknown>" : s;
    }

    private static String orPending(String s) {
        return s.isEmpty() ? "Pending" : s;
    }

    private static PrinterColumn containersCol() {
        return col("Containers", 1, o -> containers(o, ".spec.template.spec.containers", "name"));
    }

    private static PrinterColumn imagesCol() {
        return col("Images", 1, o -> containers(o, ".spec.template.spec.containers", "image"));
    }
}
