package io.kubeloop.apiserver.internal.registry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    private static String text(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? "" : n.isValueNode() ? n.asString() : n.toString();
    }

    private static long number(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? 0 : n.asLong();
    }

    private static int size(ObjectNode o, String path) {
        JsonNode n = JsonPaths.get(o, path);
        return n == null ? 0 : n.size();
    }

    private static PrinterColumn col(String name, int priority, Function<ObjectNode, Object> f) {
        return PrinterColumn.string(name, priority, f);
    }

    private static PrinterColumn intCol(String name, Function<ObjectNode, Object> f) {
        return new PrinterColumn(name, "integer", "", name, 0, f);
    }

    private static String orNone(String s) {
        return s == null || s.isEmpty() ? "<none>" : s;
    }

    private static String selector(ObjectNode o, String path) {
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
                        col(
                                "Status",
                                0,
                                o -> o.path("metadata").has("deletionTimestamp")
                                        ? "Terminating"
                                        : orPending(text(o, ".status.phase"))),
                        intCol("Restarts", o -> {
                            long r = 0;
                            JsonNode st = JsonPaths.get(o, ".status.containerStatuses");
                            if (st != null) {
                                for (JsonNode c : st) {
                                    r += c.path("restartCount").asLong(0);
                                }
                            }
                            return r;
                        }),
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
                        col("Status", 0, o -> "Ready"),
                        col("Roles", 0, o -> "<none>"),
                        age(),
                        col("Version", 0, o -> text(o, ".status.nodeInfo.kubeletVersion")));
            case "serviceaccounts" -> List.of(intCol("Secrets", o -> (long) size(o, ".secrets")), age());
            case "endpoints" -> List.of(col("Endpoints", 0, o -> "<none>"), age());
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
            default -> List.of(age());
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
                        o -> first(o, ".involvedObject.kind", ".regarding.kind").toLowerCase(java.util.Locale.ROOT)
                                + "/" + first(o, ".involvedObject.name", ".regarding.name")),
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
