package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.builtin.PodQos;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The create/update rules of the generic registry store, as functions over JSON trees:
 * server-set metadata, name validation, generation, status split, finalizer rules.
 *
 * <p>Stateless apart from the random source; thread-safe.
 */
final class ObjectSemantics {

    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ObjectSemantics() {}

    static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** {@code prefix} (cut to 58) + 5 random characters of the real alphabet. */
    static String generateName(String prefix) {
        String p = prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
        StringBuilder b = new StringBuilder(p);
        for (int i = 0; i < 5; i++) {
            b.append(ALPHANUMS.charAt(RANDOM.nextInt(ALPHANUMS.length())));
        }
        return b.toString();
    }

    /** 400 unless the body's apiVersion and kind are those of the endpoint (empty ones are filled in). */
    static void checkTypeMeta(ResourceDefinition def, ObjectNode body, String expectedKind, String expectedApiVersion) {
        String apiVersion = body.path("apiVersion").asString("");
        String kind = body.path("kind").asString("");
        if (!apiVersion.isEmpty() && !apiVersion.equals(expectedApiVersion)) {
            throw ApiErrors.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API " + "version (" + expectedApiVersion + ")");
        }
        if (!kind.isEmpty() && !kind.equals(expectedKind)) {
            throw ApiErrors.badRequest(
                    "the kind in the data (" + kind + ") does not match the expected kind (" + expectedKind + ")");
        }
        body.put("apiVersion", expectedApiVersion);
        body.put("kind", expectedKind);
    }

    /** Sets or checks {@code metadata.namespace} against the URL. */
    static void checkNamespace(ResourceDefinition def, ObjectNode body, String urlNamespace) {
        ObjectNode meta = Metadata.metadata(body);
        if (!def.namespaced()) {
            meta.remove("namespace");
            return;
        }
        String ns = Metadata.text(body, "namespace");
        if (ns.isEmpty()) {
            meta.put("namespace", urlNamespace);
        } else if (!ns.equals(urlNamespace)) {
            throw ApiErrors.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the " + "request");
        }
    }

    /** 422 for a missing or invalid name (after generateName was applied). */
    static void validateName(ResourceDefinition def, ObjectNode body) {
        String name = Metadata.text(body, "name");
        List<ApiErrors.FieldError> errs = new ArrayList<>();
        if (name.isEmpty()) {
            errs.add(ApiErrors.FieldError.required("metadata.name", "name or generateName is required"));
        } else {
            for (String problem : def.nameRule().validate(name)) {
                errs.add(ApiErrors.FieldError.invalid("metadata.name", name, problem));
            }
        }
        if (!errs.isEmpty()) {
            throw ApiErrors.invalid(def, name, errs);
        }
    }

    /** Server-set metadata of a new object; drops the status where a status subresource owns it. */
    static void prepareCreate(ResourceDefinition def, ObjectNode obj, Instant now) {
        ObjectNode meta = Metadata.metadata(obj);
        meta.put("uid", UUID.randomUUID().toString());
        meta.put("creationTimestamp", timestamp(now));
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.remove("managedFields");
        meta.remove("selfLink");
        if (def.tracksGeneration()) {
            meta.put("generation", 1);
        } else {
            meta.remove("generation");
        }
        if (def.hasSubresource("status") && !def.plural().equals("namespaces")) {
            obj.remove("status");
        }
        if (!def.custom() && def.group().isEmpty() && def.plural().equals("pods")) {
            obj.putObject("status").put("phase", "Pending").put("qosClass", PodQos.of(obj.path("spec")));
        }
        if (!def.custom()
                && def.group().isEmpty()
                && (def.plural().equals("persistentvolumeclaims")
                        || def.plural().equals("persistentvolumes"))) {
            obj.putObject("status").put("phase", "Pending");
        }
        if (!def.custom() && def.group().equals("batch") && def.plural().equals("jobs")) {
            jobSelector(obj);
        }
        ensureStatus(def, obj);
        if (def.group().isEmpty() && def.plural().equals("namespaces")) {
            String name = Metadata.text(obj, "name");
            ObjectNode labels = meta.get("labels") instanceof ObjectNode l ? l : meta.putObject("labels");
            labels.put("kubernetes.io/metadata.name", name);
            ObjectNode spec = obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
            spec.putArray("finalizers").add("kubernetes");
            obj.putObject("status").put("phase", "Active");
        }
    }

    /**
     * The object a PUT (or patch) stores: server fields carried over from {@code old}, the status split
     * applied, generation bumped when the spec changed.
     *
     * @param subresource {@code ""} for the main resource, {@code status} for the status subresource
     */
    static ObjectNode prepareUpdate(
            ResourceDefinition def, StoredObject oldStored, ObjectNode updated, String subresource) {
        ObjectNode old = oldStored.object();
        ObjectNode result;
        if (subresource.equals("status")) {
            result = old.deepCopy();
            JsonNode status = updated.get("status");
            if (status == null) {
                result.remove("status");
            } else {
                result.set("status", status);
            }
            ensureStatus(def, result);
            return result;
        }
        result = updated;
        ObjectNode meta = Metadata.metadata(result);
        ObjectNode oldMeta = Metadata.metadata(old);
        for (String f :
                List.of("uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation")) {
            if (oldMeta.has(f)) {
                meta.set(f, oldMeta.get(f));
            } else {
                meta.remove(f);
            }
        }
        if (!meta.has("managedFields") && oldMeta.has("managedFields")) {
            meta.set("managedFields", oldMeta.get("managedFields"));
        }
        if (def.hasSubresource("status")) {
            if (old.has("status")) {
                result.set("status", old.get("status"));
            } else {
                result.remove("status");
            }
        }
        if (def.group().isEmpty() && def.plural().equals("namespaces") && old.has("status")) {
            result.set("status", old.get("status"));
        }
        if (def.tracksGeneration() && specChanged(def, old, result)) {
            meta.put("generation", oldMeta.path("generation").asLong(0) + 1);
        }
        ensureStatus(def, result);
        return result;
    }

    /**
     * The status kube-apiserver serializes for a built-in object nobody has given one yet: its Go type holds the
     * status as a struct, always written, with the fields that are not {@code omitempty} at their zero value.
     * Keyed by {@code group/plural}; kinds whose status is filled in on create (Pods, Namespaces) or by their
     * controller (Nodes, CRDs) are not here.
     */
    private static final Map<String, String> ZERO_STATUS = Map.of(
            "apps/deployments", "{}",
            "apps/replicasets", "{\"replicas\":0}",
            "apps/statefulsets", "{\"replicas\":0,\"availableReplicas\":0}",
            "apps/daemonsets",
                    "{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0,"
                            + "\"numberReady\":0}",
            "batch/jobs", "{}",
            "batch/cronjobs", "{}",
            "/services", "{\"loadBalancer\":{}}",
            "policy/poddisruptionbudgets",
                    "{\"disruptionsAllowed\":0,\"currentHealthy\":0,\"desiredHealthy\":0,\"expectedPods\":0}");

    /**
     * A Job's generated selector, as kube-apiserver makes it on create unless {@code spec.manualSelector} is
     * true: {@code batch.kubernetes.io/controller-uid: <uid>}, and the template labelled with it, with
     * {@code batch.kubernetes.io/job-name} and with their legacy forms {@code controller-uid} and
     * {@code job-name}.
     */
    private static void jobSelector(ObjectNode job) {
        if (!(job.get("spec") instanceof ObjectNode spec)
                || spec.path("manualSelector").asBoolean(false)) {
            return;
        }
        String uid = Metadata.text(job, "uid");
        String name = Metadata.text(job, "name");
        spec.putObject("selector").putObject("matchLabels").put("batch.kubernetes.io/controller-uid", uid);
        ObjectNode template = spec.get("template") instanceof ObjectNode t ? t : spec.putObject("template");
        ObjectNode meta = template.get("metadata") instanceof ObjectNode m ? m : template.putObject("metadata");
        ObjectNode labels = meta.get("labels") instanceof ObjectNode l ? l : meta.putObject("labels");
        labels.put("batch.kubernetes.io/controller-uid", uid);
        labels.put("batch.kubernetes.io/job-name", name);
        labels.put("controller-uid", uid);
        labels.put("job-name", name);
    }

    /**
     * Gives a built-in object without a status the one kube-apiserver would serialize ({@link #ZERO_STATUS}), so
     * that typed clients reading {@code .status.replicas} of a new Deployment find {@code status: {}} whatever
     * path wrote it. Custom resources keep an absent status absent.
     */
    static void ensureStatus(ResourceDefinition def, ObjectNode obj) {
        String zero = def.custom() ? null : ZERO_STATUS.get(def.group() + "/" + def.plural());
        if (zero != null && !(obj.get("status") instanceof ObjectNode)) {
            obj.set("status", KubeJson.mapper().readTree(zero));
        }
    }

    /** Everything but metadata (and status, when a subresource owns it) compared. */
    static boolean specChanged(ResourceDefinition def, ObjectNode old, ObjectNode now) {
        Set<String> keys = new HashSet<>();
        old.propertyNames().forEach(keys::add);
        now.propertyNames().forEach(keys::add);
        for (String k : keys) {
            if (k.equals("metadata")
                    || k.equals("apiVersion")
                    || k.equals("kind")
                    || k.equals("status") && (def.hasSubresource("status") || !def.custom())) {
                continue;
            }
            JsonNode a = old.get(k);
            JsonNode b = now.get(k);
            if (a == null ? b != null : !a.equals(b)) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code a} and {@code b} differ only in resourceVersion and managedFields timestamps. */
    static boolean sameContent(ObjectNode a, ObjectNode b) {
        return equalExcept(a, b, Set.of("metadata"))
                && equalExcept(metadataOrEmpty(a), metadataOrEmpty(b), Set.of("resourceVersion", "managedFields"));
    }

    /** {@code metadata} as {@link Metadata#metadata} would see it, without creating it. */
    private static ObjectNode metadataOrEmpty(ObjectNode object) {
        return object.get("metadata") instanceof ObjectNode m ? m : JsonNodeFactory.instance.objectNode();
    }

    /** Whether the two objects have equal members, the {@code skipped} ones aside. */
    private static boolean equalExcept(ObjectNode a, ObjectNode b, Set<String> skipped) {
        for (Map.Entry<String, JsonNode> e : a.properties()) {
            if (!skipped.contains(e.getKey()) && !e.getValue().equals(b.get(e.getKey()))) {
                return false;
            }
        }
        for (String name : b.propertyNames()) {
            if (!skipped.contains(name) && !a.has(name)) {
                return false;
            }
        }
        return true;
    }

    static List<String> finalizers(ObjectNode o) {
        List<String> out = new ArrayList<>();
        JsonNode f = o.path("metadata").get("finalizers");
        if (f instanceof ArrayNode a) {
            a.forEach(n -> out.add(n.asString()));
        }
        return out;
    }

    /** 422 when a terminating object gains a finalizer. */
    static void checkNoNewFinalizers(ResourceDefinition def, ObjectNode old, ObjectNode now) {
        if (!old.path("metadata").has("deletionTimestamp")) {
            return;
        }
        List<String> added = new ArrayList<>(finalizers(now));
        added.removeAll(finalizers(old));
        if (!added.isEmpty()) {
            throw ApiErrors.invalid(
                    def,
                    Metadata.text(now, "name"),
                    List.of(ApiErrors.FieldError.forbidden(
                            "metadata.finalizers",
                            "no new finalizers can be added if the object is being deleted, found new "
                                    + "finalizers []string{"
                                    + String.join(
                                            ", ",
                                            added.stream()
                                                    .map(s -> "\"" + s + "\"")
                                                    .toList())
                                    + "}")));
        }
    }

    /** The value of a selectable field ({@code ""} when absent). */
    static String fieldValue(ObjectNode o, String field) {
        return switch (field) {
            case "metadata.name" -> Metadata.text(o, "name");
            case "metadata.namespace" -> Metadata.text(o, "namespace");
            case "source" -> o.path("source").path("component").asString("");
            case "spec.hostNetwork", "spec.unschedulable" -> {
                JsonNode n = JsonPaths.get(o, "." + field);
                yield n == null ? "false" : n.asString();
            }
            case "status.podIPs" -> {
                JsonNode n = JsonPaths.get(o, ".status.podIPs");
                yield n == null || n.isEmpty() ? "" : n.get(0).path("ip").asString("");
            }
            default -> {
                JsonNode n = JsonPaths.get(o, "." + field);
                yield n == null ? "" : n.asString();
            }
        };
    }

    /** The labels of an object. */
    static Map<String, String> labels(ObjectNode o) {
        JsonNode l = o.path("metadata").get("labels");
        if (l == null || !l.isObject()) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        l.properties().forEach(e -> out.put(e.getKey(), e.getValue().asString()));
        return out;
    }
}
