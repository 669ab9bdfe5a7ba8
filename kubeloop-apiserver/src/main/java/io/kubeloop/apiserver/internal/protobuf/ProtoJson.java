package io.kubeloop.apiserver.internal.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts a decoded Kubernetes protobuf message to the JSON Go's {@code encoding/json} writes for the same
 * object, walking the message's descriptor (no per-kind code). Field names are the proto field names, which
 * go-to-protobuf takes from the JSON tags. The types with custom JSON forms are recognised by their full proto
 * name: {@code meta.v1.Time} (RFC 3339, seconds; a zero time is {@code null}), {@code meta.v1.MicroTime}
 * (RFC 3339 with microseconds), {@code meta.v1.Duration} (Go duration text such as {@code 1h0m0s}),
 * {@code intstr.IntOrString} (number or string), {@code resource.Quantity} (its string),
 * {@code runtime.RawExtension} and {@code meta.v1.FieldsV1} (their raw JSON, inline), and the
 * string-list wrappers {@code Verbs}/{@code ExtraValue} (arrays). Go structs embedded inline (a Probe's
 * handler, a Volume's source, ...; {@link #INLINE}) have their fields merged into the parent object. {@code bytes} become base64 strings, 64-bit
 * integers JSON numbers, maps JSON objects with sorted keys.
 *
 * <p><b>Absent and zero values.</b> Go's protobuf encoding writes every non-pointer field, so presence on the
 * wire does not tell a set optional field from an unset one. Fields absent on the wire, and empty lists and
 * maps, are omitted. A present singular scalar whose value is the zero value ({@code ""}, {@code 0},
 * {@code false}) is omitted too, as Go's {@code omitempty} does for the value fields that are the vast
 * majority, except for the field names in {@link #ZERO_IS_MEANINGFUL}: Go pointer fields whose zero differs
 * from unset ({@code replicas: 0}, {@code gracePeriodSeconds: 0}, {@code automountServiceAccountToken: false},
 * ...) and value fields without {@code omitempty} ({@code restartCount}, {@code exitCode}, ...). Present
 * messages are always written ({@code "status": {}}), as Go writes structs.
 *
 * <p>Stateless and thread-safe.
 */
final class ProtoJson {

    /** Scalar fields whose zero value is kept: Go pointers where zero means something, and non-omitempty values. */
    static final Set<String> ZERO_IS_MEANINGFUL = Set.of(
            // Go pointers (apps, batch, core, meta)
            "replicas",
            "revisionHistoryLimit",
            "progressDeadlineSeconds",
            "partition",
            "gracePeriodSeconds",
            "orphanDependents",
            "deletionGracePeriodSeconds",
            "controller",
            "blockOwnerDeletion",
            "terminationGracePeriodSeconds",
            "activeDeadlineSeconds",
            "backoffLimit",
            "backoffLimitPerIndex",
            "maxFailedIndexes",
            "parallelism",
            "completions",
            "suspend",
            "startingDeadlineSeconds",
            "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit",
            "ttlSecondsAfterFinished",
            "manualSelector",
            "automountServiceAccountToken",
            "immutable",
            "enableServiceLinks",
            "shareProcessNamespace",
            "hostUsers",
            "runAsUser",
            "runAsGroup",
            "runAsNonRoot",
            "fsGroup",
            "privileged",
            "allowPrivilegeEscalation",
            "readOnlyRootFilesystem",
            "tolerationSeconds",
            "priority",
            "optional",
            "defaultMode",
            "mode",
            "allocateLoadBalancerNodePorts",
            "expirationSeconds",
            "started",
            // values without omitempty
            "ready",
            "restartCount",
            "exitCode",
            "port",
            "containerPort",
            "weight");

    /**
     * Go fields embedded with {@code json:",inline"}: go-to-protobuf gives them a field of their own, JSON merges
     * their fields into the parent's.
     */
    static final Set<String> INLINE = Set.of(
            "k8s.io.api.core.v1.Probe.handler",
            "k8s.io.api.core.v1.Volume.volumeSource",
            "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
            "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.networking.v1.IngressRule.ingressRuleValue");

    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final long GO_ZERO_TIME_UNIX = -62135596800L;
    private static final DateTimeFormatter MICRO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ProtoJson() {}

    /** The JSON object of a message whose type is an ordinary struct (not one of the special types). */
    static ObjectNode object(Message m) {
        ObjectNode out = NODES.objectNode();
        for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
            if (f.isMapField()) {
                if (m.getRepeatedFieldCount(f) > 0) {
                    out.set(f.getName(), map(m, f));
                }
            } else if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                if (n > 0) {
                    ArrayNode a = out.putArray(f.getName());
                    for (int i = 0; i < n; i++) {
                        a.add(value(f, m.getRepeatedField(f, i)));
                    }
                }
            } else if (m.hasField(f)) {
                Object v = m.getField(f);
                if (INLINE.contains(f.getFullName())) {
                    out.setAll(object((Message) v));
                    continue;
                }
                if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE
                        && isZero(v)
                        && !ZERO_IS_MEANINGFUL.contains(f.getName())) {
                    continue;
                }
                out.set(f.getName(), value(f, v));
            }
        }
        return out;
    }

    private static ObjectNode map(Message m, FieldDescriptor f) {
        Descriptor entry = f.getMessageType();
        FieldDescriptor key = entry.findFieldByNumber(1);
        FieldDescriptor val = entry.findFieldByNumber(2);
        Map<String, JsonNode> sorted = new TreeMap<>();
        for (int i = 0; i < m.getRepeatedFieldCount(f); i++) {
            Message e = (Message) m.getRepeatedField(f, i);
            sorted.put(String.valueOf(e.getField(key)), value(val, e.getField(val)));
        }
        ObjectNode o = NODES.objectNode();
        sorted.forEach(o::set);
        return o;
    }

    private static boolean isZero(Object v) {
        return switch (v) {
            case String s -> s.isEmpty();
            case Boolean b -> !b;
            case Integer i -> i == 0;
            case Long l -> l == 0;
            case Double d -> d == 0;
            case Float d -> d == 0;
            case ByteString b -> b.isEmpty();
            default -> false;
        };
    }

    private static JsonNode value(FieldDescriptor f, Object v) {
        return switch (f.getJavaType()) {
            case STRING -> NODES.stringNode((String) v);
            case BOOLEAN -> NODES.booleanNode((Boolean) v);
            case INT -> NODES.numberNode((Integer) v);
            case LONG -> number((Long) v);
            case DOUBLE -> NODES.numberNode((Double) v);
            case FLOAT -> NODES.numberNode((Float) v);
            case BYTE_STRING -> NODES.stringNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case ENUM -> NODES.stringNode(v.toString());
            case MESSAGE -> message((Message) v);
        };
    }

    /** A 64-bit integer as Jackson reads the same JSON number (an int node when it fits). */
    private static JsonNode number(long v) {
        return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
    }

    /** The JSON of any message value, special types included. */
    static JsonNode message(Message m) {
        Descriptor d = m.getDescriptorForType();
        String name = d.getFullName();
        return switch (name) {
            case META + "Time" -> time(m, false);
            case META + "MicroTime" -> time(m, true);
            case META + "Duration" -> NODES.stringNode(GoDuration.format(longField(m, "duration")));
            case META + "FieldsV1" -> raw(bytesField(m, "Raw"), name);
            case "k8s.io.apimachinery.pkg.runtime.RawExtension" -> raw(bytesField(m, "raw"), name);
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" ->
                longField(m, "type") == 1
                        ? NODES.stringNode((String) m.getField(d.findFieldByName("strVal")))
                        : NODES.numberNode((Integer) m.getField(d.findFieldByName("intVal")));
            case "k8s.io.apimachinery.pkg.api.resource.Quantity",
                    "k8s.io.apimachinery.pkg.api.resource.QuantityValue" ->
                NODES.stringNode((String) m.getField(d.findFieldByName("string")));
            default -> isStringList(d) ? stringList(m, d) : object(m);
        };
    }

    /** Go's {@code []string} named types (meta.v1 Verbs, authentication ExtraValue, ...) wrapped as {@code items}. */
    private static boolean isStringList(Descriptor d) {
        List<FieldDescriptor> fs = d.getFields();
        return (d.getName().equals("Verbs") || d.getName().equals("ExtraValue"))
                && fs.size() == 1
                && fs.getFirst().getName().equals("items")
                && fs.getFirst().isRepeated();
    }

    private static ArrayNode stringList(Message m, Descriptor d) {
        FieldDescriptor items = d.getFields().getFirst();
        ArrayNode a = NODES.arrayNode();
        for (int i = 0; i < m.getRepeatedFieldCount(items); i++) {
            a.add(value(items, m.getRepeatedField(items, i)));
        }
        return a;
    }

    private static JsonNode time(Message m, boolean micro) {
        Descriptor d = m.getDescriptorForType();
        FieldDescriptor s = d.findFieldByName("seconds");
        FieldDescriptor n = d.findFieldByName("nanos");
        long seconds = (Long) m.getField(s);
        int nanos = (Integer) m.getField(n);
        if ((!m.hasField(s) && !m.hasField(n)) || (seconds == GO_ZERO_TIME_UNIX && nanos == 0)) {
            return NODES.nullNode();
        }
        // metav1.Time keeps only seconds when it reads protobuf; MicroTime keeps nanos and prints micros.
        Instant t = Instant.ofEpochSecond(seconds, micro ? nanos : 0);
        return NODES.stringNode((micro ? MICRO : SECONDS).format(t));
    }

    private static JsonNode raw(ByteString raw, String type) {
        if (raw.isEmpty()) {
            return NODES.nullNode();
        }
        try {
            return KubeJson.mapper().readTree(raw.toByteArray());
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "the raw bytes of a " + type + " are not JSON: " + e.getOriginalMessage());
        }
    }

    private static long longField(Message m, String name) {
        return ((Number) m.getField(m.getDescriptorForType().findFieldByName(name))).longValue();
    }

    private static ByteString bytesField(Message m, String name) {
        return (ByteString) m.getField(m.getDescriptorForType().findFieldByName(name));
    }
}
