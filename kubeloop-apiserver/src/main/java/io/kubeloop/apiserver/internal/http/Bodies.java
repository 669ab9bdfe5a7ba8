package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.RequestEntityTooLargeException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.patch.RequestJson;
import io.kubeloop.apiserver.internal.protobuf.ProtobufBodies;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.schema.FieldValidationCheck;
import io.kubeloop.client.FieldValidation;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Request bodies: bounded reading (413 over the limit) and decoding of JSON or YAML objects (400 when
 * malformed, 415 for other media types) or Kubernetes protobuf ({@link ProtobufBodies}).
 *
 * <p>Stateless and thread-safe.
 */
final class Bodies {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    /**
     * How much of a body the server reads and drops when it answers without reading it all (beyond what it read):
     * a client sending up to this much more reads the answer; past it, its stream is reset or its connection closed.
     */
    static final long MOST_DISCARDED = 8L << 20;

    private Bodies() {}

    /**
     * Reads at most {@code limit} bytes; 413 when the body is longer, after {@linkplain #discard discarding} the
     * rest so that the client reads the answer.
     */
    static byte[] read(InputStream in, long limit) {
        try (in) {
            byte[] data = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (data.length > limit) {
                discard(in, MOST_DISCARDED);
                throw new RequestEntityTooLargeException(
                        Status.failure(413, "RequestEntityTooLarge", "Request entity too large: limit is " + limit));
            }
            return data;
        } catch (IOException e) {
            throw ApiErrors.badRequest("cannot read the request body: " + e.getMessage());
        }
    }

    /**
     * Reads and drops what is left of a body the server answers without reading it all, up to {@code most} bytes, in
     * a small buffer allocated only when something is left: a client still sending it reads the answer, instead of a reset stream or a closed connection
     * (what it gets when more than {@code most} bytes are left). Memory stays bounded whatever the client sends.
     *
     * @throws IOException when the body cannot be read (the client went away)
     */
    static void discard(InputStream in, long most) throws IOException {
        if (most <= 0 || in.read() < 0) {
            return; // the usual case, a body read to its end (or none): no buffer
        }
        byte[] sink = new byte[8 * 1024];
        long left = most - 1;
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                return;
            }
            left -= n;
        }
    }

    /** Whether the Content-Type is YAML. */
    static boolean isYaml(String contentType) {
        String mt = mediaType(contentType);
        return mt.equals("application/yaml") || mt.equals("application/x-yaml") || mt.equals("text/yaml");
    }

    static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }

    /** Decodes an object body of a create or update (JSON, YAML, or Kubernetes protobuf). */
    static ObjectNode object(byte[] body, String contentType) {
        String mt = mediaType(contentType);
        if (ProtobufBodies.isProtobuf(mt)) {
            return ProtobufBodies.decode(body);
        }
        boolean yaml = isYaml(contentType);
        if (!yaml && !mt.isEmpty() && !mt.equals("application/json") && !mt.equals("*/*")) {
            throw ApiErrors.unsupportedMediaType("the body of the request was in an unknown format - accepted media "
                    + "types include: application/json, application/yaml");
        }
        if (body.length == 0) {
            throw ApiErrors.badRequest("the request body is empty; an object is required");
        }
        String tooDeep = yaml ? null : RequestJson.depthError(body);
        if (tooDeep != null) {
            throw ApiErrors.badRequest("couldn't get version/kind; json parse error: " + tooDeep);
        }
        try {
            JsonNode n = yaml ? YAML.readTree(body) : RequestJson.read(body);
            if (!(n instanceof ObjectNode o)) {
                throw ApiErrors.badRequest("the request body must be a JSON object, got "
                        + (n == null ? "nothing" : n.getNodeType().name().toLowerCase(Locale.ROOT)));
            }
            return o;
        } catch (JacksonException e) {
            throw ApiErrors.badRequest(
                    "the request body is not valid " + (yaml ? "YAML" : "JSON") + ": " + e.getOriginalMessage());
        }
    }

    /**
     * Finds the duplicate fields of a JSON object body, a merge patch or a strategic merge patch (not of YAML,
     * JSON-patch or apply bodies) unless {@code fieldValidation=Ignore}, and records them in {@code ctx}.
     */
    static void recordDuplicateFields(WriteContext ctx, byte[] body, String contentType) {
        String mt = mediaType(contentType);
        boolean json = mt.isEmpty()
                || mt.equals("application/json")
                || mt.equals("*/*")
                || mt.equals("application/merge-patch+json")
                || mt.equals("application/strategic-merge-patch+json");
        if (!json || ctx.fieldValidation() == FieldValidation.IGNORE || body.length == 0) {
            return;
        }
        try {
            ctx.duplicateFields(FieldValidationCheck.duplicateFields(body));
        } catch (IllegalArgumentException malformed) {
            // the decoder reports malformed bodies
        }
    }

    /** A patch body: YAML apply patches are converted to JSON bytes. */
    static byte[] patch(byte[] body, String contentType) {
        if (mediaType(contentType).equals("application/apply-patch+yaml")) {
            try {
                return KubeJson.mapper().writeValueAsBytes(YAML.readTree(body));
            } catch (JacksonException e) {
                throw ApiErrors.badRequest("error decoding YAML: " + e.getOriginalMessage());
            }
        }
        return body;
    }
}
