package io.kubeloop.apiserver.internal.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubernetes.client.proto.Runtime;
import java.nio.ByteBuffer;
import java.util.Arrays;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decodes {@code application/vnd.kubernetes.protobuf} request bodies to the JSON object the server stores.
 *
 * <p>A body is the four magic bytes {@code k8s\0} followed by a {@code runtime.Unknown} message: {@code typeMeta}
 * ({@code apiVersion}, {@code kind}), {@code raw} (the kind's own {@code generated.proto} message),
 * {@code contentEncoding} (must be empty) and {@code contentType}. The kind's message comes from
 * {@link ProtoKinds}; {@link ProtoJson} turns it into JSON, with {@code kind} and {@code apiVersion} first.
 *
 * <p>Errors are API errors: 400 BadRequest for a body that is not such an envelope or whose message does not
 * parse, 415 UnsupportedMediaType for a kind without a known message (custom resources, and the built-ins
 * listed in {@link ProtoKinds}), as the real server answers protobuf for custom resources. client-go does not
 * fall back to JSON after a 415 for protobuf (only for CBOR), so the 415 reaches the caller.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProtobufBodies {

    /** The protobuf media type of Kubernetes. */
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

    private static final byte[] MAGIC = {'k', '8', 's', 0};
    /** The 415 message, as the real server words it for a resource without protobuf. */
    public static final String UNSUPPORTED = "the body of the request was in an unknown format - accepted media "
            + "types include: application/json, application/yaml";

    private ProtobufBodies() {}

    /** Whether a media type (without parameters, lower case) is Kubernetes protobuf. */
    public static boolean isProtobuf(String mediaType) {
        return MEDIA_TYPE.equals(mediaType);
    }

    /**
     * The JSON object of a protobuf body.
     *
     * @throws ApiException 400 for a malformed body, 415 for a kind this server cannot decode
     */
    public static ObjectNode decode(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw ApiErrors.badRequest(
                    "provided data does not appear to be a protobuf message, expected prefix " + "[107 56 115 0]");
        }
        Runtime.Unknown unknown;
        try {
            unknown = Runtime.Unknown.parseFrom(ByteBuffer.wrap(body, MAGIC.length, body.length - MAGIC.length));
        } catch (InvalidProtocolBufferException e) {
            throw ApiErrors.badRequest("the protobuf envelope (runtime.Unknown) does not parse: " + e.getMessage());
        }
        String apiVersion = unknown.getTypeMeta().getApiVersion();
        String kind = unknown.getTypeMeta().getKind();
        if (!unknown.getContentEncoding().isEmpty()) {
            throw ApiErrors.badRequest("unsupported protobuf contentEncoding \"" + unknown.getContentEncoding() + "\"");
        }
        Descriptor d = ProtoKinds.message(apiVersion, kind)
                .orElseThrow(() -> ApiErrors.unsupportedMediaType(
                        UNSUPPORTED + " (no protobuf message is known for " + apiVersion + ", Kind=" + kind + ")"));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("kind", kind);
        out.put("apiVersion", apiVersion);
        try {
            JsonNode fields = ProtoJson.message(DynamicMessage.parseFrom(d, unknown.getRaw()));
            if (fields instanceof ObjectNode o) {
                out.setAll(o);
            }
        } catch (InvalidProtocolBufferException e) {
            throw ApiErrors.badRequest(
                    "the protobuf " + apiVersion + ", Kind=" + kind + " does not parse: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiErrors.badRequest(e.getMessage());
        }
        return out;
    }
}
