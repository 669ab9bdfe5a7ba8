package io.kubeloop.apiserver.internal.openapi;

import io.kubeloop.apiserver.internal.schema.CanonicalJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.ServedResources;
import io.kubeloop.apiserver.internal.schema.UpstreamOpenApi;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Swagger 2.0 document of {@code GET /openapi/v2}, as JSON and as gnostic protobuf: all group
 * versions in one document, the built-in ones as the release's own {@code swagger.json} has them, the
 * custom resources' as kubeloop writes them ({@code #/definitions/} references, body parameters and
 * {@code consumes} instead of request bodies).
 *
 * <p><b>Who reads it.</b> kubectl 1.27 and 1.28 fetch {@code /openapi/v2} with
 * {@code Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf} before anything else
 * for {@code explain}, {@code create}/{@code apply}/{@code replace} with the default validation and
 * client-side {@code apply}, and fail ({@code failed to download openapi}) when it is missing or
 * does not parse. From it they look up a kind's definition by the definitions'
 * {@code x-kubernetes-group-version-kind} (explain, client-side validation, strategic merge patch
 * keys from {@code x-kubernetes-patch-merge-key}/{@code -strategy}) and the PATCH operation by its
 * GVK extension ({@code consumes}: strategic merge or merge patch; a {@code fieldValidation} query
 * parameter: send {@code fieldValidation=Strict} instead of validating on the client). kubectl
 * 1.29 and later ask {@code /openapi/v3} first and need v2 only when v3 fails.
 *
 * <p><b>Serving it</b> (what kube-openapi's handler does): negotiate with {@link #negotiate} on the
 * request's {@code Accept}; answer {@link #JSON} with {@link Document#json()} and either protobuf
 * media type with {@link Document#protobuf()} and {@code Content-Type: }{@link #PROTOBUF} (the
 * real server always answers the dotted name, also to the deprecated {@code @v1.0} one kubectl
 * asks for); {@code 406} when nothing matches. Both carry {@code ETag: "<}{@link Document#etag()}{@code >"}
 * and {@code Vary: Accept}. The real server gzips when the request says
 * {@code Accept-Encoding: gzip} (Go clients send it and decompress transparently); that is optional.
 *
 * <p>Bytes are stable as in {@link OpenApiV3}: equal kinds give equal JSON, protobuf and ETag.
 * Rebuild whenever the served kinds change.
 *
 * <p>Thread-safe (pure functions).
 */
public final class OpenApiV2 {

    /** {@code application/json}. */
    public static final String JSON = "application/json";
    /** The protobuf media type the real server answers with. */
    public static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    /** The older spelling of {@link #PROTOBUF}, which client-go (kubectl) puts in its {@code Accept}. */
    public static final String PROTOBUF_DEPRECATED = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

    private OpenApiV2() {}

    /**
     * The document in both forms.
     *
     * @param json the Swagger 2.0 JSON, keys sorted
     * @param protobuf the serialized gnostic {@code openapi.v2.Document} of the same document
     * @param etag upper-case hex SHA-512 of {@code json}, for both forms (as kube-openapi does);
     *     send it in double quotes
     */
    public record Document(byte[] json, byte[] protobuf, String etag) {

        public Document {
            json = json.clone();
            protobuf = protobuf.clone();
            Objects.requireNonNull(etag, "etag");
        }

        @Override
        public byte[] json() {
            return json.clone();
        }

        @Override
        public byte[] protobuf() {
            return protobuf.clone();
        }

        /** The body for a content type {@link #negotiate} chose: {@link #JSON} or {@link #PROTOBUF}. */
        public byte[] body(String contentType) {
            return switch (contentType) {
                case JSON -> json();
                case PROTOBUF -> protobuf();
                default -> throw new IllegalArgumentException("not a content type of /openapi/v2: " + contentType);
            };
        }
    }

    /** Builds both forms of the document from the served kinds. */
    public static Document served(List<ServedKind> kinds) {
        ObjectNode doc = document(kinds);
        byte[] json = CanonicalJson.bytes(doc);
        return new Document(json, GnosticV2.document(doc), CanonicalJson.hash(json));
    }

    /**
     * The whole Swagger 2.0 document, each kind serving its {@code status} and {@code scale}
     * subresources as {@link ServedKind#subresources()} says.
     */
    public static ObjectNode document(List<ServedKind> kinds) {
        return document(kinds, ServedResources.of(kinds));
    }

    /**
     * The whole Swagger 2.0 document: the release's own {@code swagger.json} limited to the built-in
     * resources {@code served} names ({@link UpstreamOpenApi#swagger}), with the paths and definitions
     * kubeloop writes for the custom resources among {@code kinds} (their schemas of types the release
     * defines, such as ObjectMeta, are the release's own).
     */
    public static ObjectNode document(List<ServedKind> kinds, ServedResources served) {
        OpenApiDocument doc = new OpenApiDocument(true);
        doc.addCommonDefinitions();
        kinds.stream().filter(k -> !k.builtin()).forEach(doc::add);
        ObjectNode root = UpstreamOpenApi.swagger(served);
        ObjectNode paths = (ObjectNode) root.path("paths");
        doc.paths().forEach(paths::set);
        ObjectNode defs = (ObjectNode) root.path("definitions");
        doc.schemas().definitions().forEach((name, body) -> {
            if (!defs.has(name)) {
                defs.set(name, body);
            }
        });
        return (ObjectNode) CanonicalJson.sorted(root);
    }

    /** The document's JSON bytes, keys sorted (stable for equal input). */
    public static byte[] bytes(List<ServedKind> kinds) {
        return CanonicalJson.bytes(document(kinds));
    }

    /**
     * The document as a serialized gnostic {@code openapi.v2.Document} protobuf message (stable for
     * equal input), what {@code /openapi/v2} answers for {@link #PROTOBUF}.
     */
    public static byte[] protobuf(List<ServedKind> kinds) {
        return GnosticV2.document(document(kinds));
    }

    /**
     * Any Swagger 2.0 JSON document as a gnostic {@code openapi.v2.Document}: keys the message has
     * no field for are dropped, {@code x-} keys become vendor extensions.
     *
     * @throws IllegalArgumentException when {@code swagger} is not an object or a parameter's
     *     {@code in} is none of body, header, formData, query, path
     */
    public static byte[] protobuf(ObjectNode swagger) {
        return GnosticV2.document(swagger);
    }

    /**
     * The content type to answer a request for {@code /openapi/v2} with, as kube-openapi chooses
     * it: the {@code Accept} clauses by descending quality (more specific first among equals),
     * each matched against {@link #JSON}, {@link #PROTOBUF_DEPRECATED} and {@link #PROTOBUF} in
     * that order ({@code *}{@code /*} and {@code application/*} mean JSON); a missing or blank
     * header means {@code *}{@code /*}. Clauses with {@code q=0} are refused.
     *
     * @return {@link #JSON} or {@link #PROTOBUF}; empty means {@code 406 Not Acceptable}
     */
    public static Optional<String> negotiate(String accept) {
        String header = accept == null || accept.isBlank() ? "*/*" : accept;
        record Clause(String type, String subtype, double q, int index) {}
        List<Clause> clauses = new ArrayList<>();
        String[] parts = header.split(",");
        for (int i = 0; i < parts.length; i++) {
            String[] params = parts[i].split(";");
            String range = params[0].trim().toLowerCase(Locale.ROOT);
            int slash = range.indexOf('/');
            if (slash < 0) {
                continue;
            }
            double q = 1;
            for (int j = 1; j < params.length; j++) {
                String p = params[j].trim();
                if (p.startsWith("q=")) {
                    try {
                        q = Double.parseDouble(p.substring(2));
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                }
            }
            if (q > 0) {
                clauses.add(new Clause(range.substring(0, slash), range.substring(slash + 1), q, i));
            }
        }
        clauses.sort(Comparator.comparingDouble(Clause::q)
                .reversed()
                .thenComparing(c -> c.type().equals("*") ? 2 : c.subtype().equals("*") ? 1 : 0)
                .thenComparingInt(Clause::index));
        for (Clause c : clauses) {
            for (String offered : List.of(JSON, PROTOBUF_DEPRECATED, PROTOBUF)) {
                int slash = offered.indexOf('/');
                boolean typeMatches = c.type().equals("*") || c.type().equals(offered.substring(0, slash));
                boolean subtypeMatches = c.subtype().equals("*") || c.subtype().equals(offered.substring(slash + 1));
                if (typeMatches && subtypeMatches) {
                    return Optional.of(offered.equals(JSON) ? JSON : PROTOBUF);
                }
            }
        }
        return Optional.empty();
    }
}
