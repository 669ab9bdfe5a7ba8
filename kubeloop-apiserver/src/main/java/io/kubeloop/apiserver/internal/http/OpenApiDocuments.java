package io.kubeloop.apiserver.internal.http;

import java.util.Map;
import java.util.Optional;

/**
 * Seam for {@code /openapi/v2} and {@code /openapi/v3[/...]}: the schema library's OpenAPI generation
 * plugs in here as {@link LibraryOpenApiDocuments}, the default (kubectl's {@code create -f}
 * validation needs {@code /openapi/v3}). With {@link #none()} everything is 404 and kubectl needs
 * {@code --validate=false}.
 *
 * <p><b>Thread safety.</b> Implementations must be thread-safe.
 */
@FunctionalInterface
public interface OpenApiDocuments {

    /** A reply: status, Content-Type, body and extra headers (ETag, Cache-Control, Location...). */
    record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {}

    /**
     * The reply for {@code path} (starting with {@code /openapi/}) and raw {@code query} (may be null),
     * or empty for 404.
     *
     * @param accept the request's Accept header (v2 may be asked for as protobuf)
     */
    Optional<Reply> serve(String path, String query, String accept);

    /** No OpenAPI documents. */
    static OpenApiDocuments none() {
        return (p, q, a) -> Optional.empty();
    }
}
