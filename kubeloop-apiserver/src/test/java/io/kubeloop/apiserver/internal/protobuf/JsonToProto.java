package io.kubeloop.apiserver.internal.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import io.kubernetes.client.proto.Runtime;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Test helper: the inverse of {@link ProtoJson}, JSON to a Kubernetes protobuf message by descriptor, and the
 * {@code k8s\0} envelope around it. Sets only the fields the JSON has (a Go client would also write its zero
 * value fields; tests that need those build messages with the generated classes).
 */
final class JsonToProto {

    private JsonToProto() {}

    /** The protobuf body of a JSON object with kind and apiVersion. */
    static byte[] body(JsonNode json) {
        Descriptor d = ProtoKinds.message(
                        json.get("apiVersion").asString(), json.get("kind").asString())
                .orElseThrow();
        return envelope(
                json.get("apiVersion").asString(),
                json.get("kind").asString(),
                message(d, json).toByteString());
    }

    static byte[] envelope(String apiVersion, String kind, ByteString raw) {
        Runtime.Unknown u = Runtime.Unknown.newBuilder()
                .setTypeMeta(
                        Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(raw)
                .setContentType(ProtobufBodies.MEDIA_TYPE)
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'k', '8', 's', 0});
        out.writeBytes(u.toByteArray());
        return out.toByteArray();
    }

    static DynamicMessage message(Descriptor d, JsonNode json) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            FieldDescriptor f = d.findFieldByName(e.getKey());
            if (f == null && (e.getKey().equals("kind") || e.getKey().equals("apiVersion"))) {
                continue; // type meta of the top level, carried by the envelope
            }
            if (f == null) {
                throw new IllegalArgumentException(d.getFullName() + " has no field " + e.getKey());
            }
            if (f.isMapField()) {
                Descriptor entry = f.getMessageType();
                for (Map.Entry<String, JsonNode> kv : e.getValue().properties()) {
                    b.addRepeatedField(
                            f,
                            DynamicMessage.newBuilder(entry)
                                    .setField(entry.findFieldByNumber(1), kv.getKey())
                                    .setField(
                                            entry.findFieldByNumber(2),
                                            value(entry.findFieldByNumber(2), kv.getValue()))
                                    .build());
                }
            } else if (f.isRepeated()) {
                for (JsonNode item : e.getValue()) {
                    b.addRepeatedField(f, value(f, item));
                }
            } else {
                b.setField(f, value(f, e.getValue()));
            }
        }
        return b.build();
    }

    private static Object value(FieldDescriptor f, JsonNode v) {
        return switch (f.getJavaType()) {
            case STRING -> v.asString();
            case BOOLEAN -> v.asBoolean();
            case INT -> v.asInt();
            case LONG -> v.asLong();
            case DOUBLE -> v.asDouble();
            case FLOAT -> (float) v.asDouble();
            case BYTE_STRING -> ByteString.copyFrom(Base64.getDecoder().decode(v.asString()));
            case ENUM -> throw new IllegalArgumentException("no enums in Kubernetes messages");
            case MESSAGE -> special(f.getMessageType(), v);
        };
    }

    private static DynamicMessage special(Descriptor d, JsonNode v) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        switch (d.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time", "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                if (!v.isNull()) {
                    Instant t = Instant.parse(v.asString());
                    b.setField(d.findFieldByName("seconds"), t.getEpochSecond());
                    b.setField(d.findFieldByName("nanos"), t.getNano());
                }
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                if (v.isNumber()) {
                    b.setField(d.findFieldByName("type"), 0L).setField(d.findFieldByName("intVal"), v.asInt());
                } else {
                    b.setField(d.findFieldByName("type"), 1L).setField(d.findFieldByName("strVal"), v.asString());
                }
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" ->
                b.setField(d.findFieldByName("string"), v.asString());
            case "k8s.io.apimachinery.pkg.runtime.RawExtension" ->
                b.setField(d.findFieldByName("raw"), ByteString.copyFromUtf8(v.toString()));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" ->
                b.setField(d.findFieldByName("Raw"), ByteString.copyFromUtf8(v.toString()));
            default -> {
                return message(d, v);
            }
        }
        return b.build();
    }
}
