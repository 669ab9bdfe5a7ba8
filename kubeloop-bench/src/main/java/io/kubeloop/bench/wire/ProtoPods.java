package io.kubeloop.bench.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes a Kubernetes object's JSON as the protobuf message of its Go type ({@code k8s.io/api}'s
 * {@code generated.proto}, as client-go sends and receives it), by the message's descriptor: fields by
 * their JSON names, maps, repeated fields, {@code Time} and {@code MicroTime} from RFC 3339 text,
 * {@code Quantity} and {@code IntOrString} as apimachinery encodes them, {@code FieldsV1} as its raw JSON,
 * and the fields of an embedded struct (inline in JSON, as Volume's VolumeSource) into its message.
 * For the benchmark's objects; a JSON field the message does not have fails.
 *
 * <p>Stateless; thread-safe.
 */
final class ProtoPods {

    private ProtoPods() {}

    /** {@code json} as a message of type {@code type}. */
    static Message encode(JsonNode json, Descriptor type) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        String name = type.getFullName();
        if (name.endsWith(".Time") || name.endsWith(".MicroTime")) {
            Instant t = Instant.parse(json.asString());
            b.setField(type.findFieldByName("seconds"), t.getEpochSecond());
            b.setField(type.findFieldByName("nanos"), t.getNano());
            return b.build();
        }
        if (name.endsWith(".Quantity")) {
            b.setField(type.findFieldByName("string"), json.asString());
            return b.build();
        }
        if (name.endsWith(".IntOrString")) {
            if (json.isInt()) {
                b.setField(type.findFieldByName("type"), 0L);
                b.setField(type.findFieldByName("intVal"), json.asInt());
            } else {
                b.setField(type.findFieldByName("type"), 1L);
                b.setField(type.findFieldByName("strVal"), json.asString());
            }
            return b.build();
        }
        if (name.endsWith(".FieldsV1")) {
            b.setField(
                    type.findFieldByName("Raw"),
                    ByteString.copyFrom(KubeJson.mapper().writeValueAsBytes(json)));
            return b.build();
        }
        Map<FieldDescriptor, ObjectNode> inlined = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            if (e.getKey().equals("apiVersion") || e.getKey().equals("kind")) {
                continue; // the TypeMeta of the runtime.Unknown envelope, not of the message
            }
            FieldDescriptor f = type.findFieldByName(e.getKey());
            if (f == null) {
                // a field of an embedded Go struct, inline in JSON (Volume's VolumeSource)
                FieldDescriptor holder = type.getFields().stream()
                        .filter(h -> h.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !h.isRepeated())
                        .filter(h -> h.getMessageType().findFieldByName(e.getKey()) != null)
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(name + " has no field " + e.getKey()));
                inlined.computeIfAbsent(holder, h -> KubeJson.mapper().createObjectNode())
                        .set(e.getKey(), e.getValue());
                continue;
            }
            JsonNode v = e.getValue();
            if (f.isMapField()) {
                Descriptor entry = f.getMessageType();
                for (Map.Entry<String, JsonNode> kv : v.properties()) {
                    DynamicMessage.Builder eb = DynamicMessage.newBuilder(entry);
                    eb.setField(entry.findFieldByName("key"), kv.getKey());
                    eb.setField(entry.findFieldByName("value"), value(entry.findFieldByName("value"), kv.getValue()));
                    b.addRepeatedField(f, eb.build());
                }
            } else if (f.isRepeated()) {
                for (JsonNode item : v) {
                    b.addRepeatedField(f, value(f, item));
                }
            } else {
                b.setField(f, value(f, v));
            }
        }
        inlined.forEach((holder, fields) -> b.setField(holder, encode(fields, holder.getMessageType())));
        return b.build();
    }

    private static Object value(FieldDescriptor f, JsonNode v) {
        return switch (f.getJavaType()) {
            case MESSAGE -> encode(v, f.getMessageType());
            case STRING -> v.asString();
            case INT -> v.asInt();
            case LONG -> v.asLong();
            case BOOLEAN -> v.asBoolean();
            case DOUBLE -> v.asDouble();
            case FLOAT -> (float) v.asDouble();
            case BYTE_STRING -> ByteString.copyFrom(KubeJson.mapper().writeValueAsBytes(v));
            case ENUM -> f.getEnumType().findValueByName(v.asString());
        };
    }
}
