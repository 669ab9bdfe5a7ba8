package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty itself gives to requests that never reach the {@link ApiHandler} (a malformed or ambiguous
 * URI, an encoded {@code /} or {@code NUL} in the path, a request line or headers over their limit): a Kubernetes
 * Status with the HTTP code, as every other error the server sends, never an HTML page.
 *
 * <p>Stateless and thread-safe.
 */
final class JettyErrors extends ErrorHandler {

    /** The Status for an error Jetty found with {@code code} and its {@code message} (may be null). */
    static Status status(int code, String message) {
        String reason = switch (code) {
            case 400 -> "BadRequest";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            default -> code >= 500 ? "InternalError" : "";
        };
        String text = message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
        return Status.failure(code, reason, text);
    }

    static byte[] json(Status status) {
        return KubeJson.mapper().writeValueAsBytes(ApiHandler.asSent(status));
    }

    /** Every method gets a Status body, not only Jetty's GET, POST and HEAD. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    /**
     * The answer to a request Jetty refused before any handler (over HTTP/1, with {@code Connection: close}: Jetty
     * may close the connection after a request it could not make sense of, as it does after a {@code NUL} in the
     * path, and Go's server closes after a malformed request too; saying so keeps a client from sending its next
     * request on a closing connection and losing it).
     */
    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        if (request.getConnectionMetaData().getHttpVersion().getVersion() < 20) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(json(status(code, message))), callback);
    }

    /** The answer to a request Jetty's HTTP/1 parser refused: the connection closes after it, and says so. */
    @Override
    public ByteBuffer badMessageError(int code, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONNECTION, "close");
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(json(status(code, reason)));
    }
}
