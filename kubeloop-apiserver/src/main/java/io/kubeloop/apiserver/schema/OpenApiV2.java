package io.kubeloop.apiserver.schema;

import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Swagger 2.0 document of {@code GET /openapi/v2} as JSON, for tools that still read it: the
 * same paths, operations and definitions as {@link OpenApiV3} (all group versions in one document,
 * {@code #/definitions/} references, body parameters and {@code consumes} instead of request bodies).
 *
 * <p>kubectl itself asks {@code /openapi/v2} only as a fallback and then with
 * {@code Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf}; kubeloop does not
 * build the protobuf form, so serve this document for {@code application/json} (and {@code 406}
 * for the protobuf-only Accept, or a 404: kubectl then reports the v3 error). As long as
 * {@code /openapi/v3} works kubectl never asks for v2. Bytes are stable as in {@link OpenApiV3}.
 *
 * <p>Thread-safe (pure functions).
 */
public final class OpenApiV2 {

    private OpenApiV2() {
    }

    /** The whole Swagger 2.0 document. */
    public static ObjectNode document(List<ServedKind> kinds) {
        OpenApiDocument doc = new OpenApiDocument(true);
        doc.addCommonDefinitions();
        kinds.forEach(doc::add);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("swagger", "2.0");
        root.putObject("info").put("title", "Kubernetes").put("version", "kubeloop");
        ObjectNode paths = root.putObject("paths");
        doc.paths().forEach(paths::set);
        ObjectNode defs = root.putObject("definitions");
        doc.schemas().definitions().forEach(defs::set);
        return (ObjectNode) CanonicalJson.sorted(root);
    }

    /** The document's bytes, keys sorted (stable for equal input). */
    public static byte[] bytes(List<ServedKind> kinds) {
        return CanonicalJson.bytes(document(kinds));
    }
}
