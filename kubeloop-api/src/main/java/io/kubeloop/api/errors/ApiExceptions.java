package io.kubeloop.api.errors;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.json.KubeJson;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Maps a server reply to the right {@link ApiException}: by {@code reason} first, then, for an
 * empty or unknown reason, by HTTP code — apimachinery's {@code errors.IsNotFound} &amp; co. rules.
 *
 * <table>
 *   <caption>reason and code to exception</caption>
 *   <tr><th>reason</th><th>code</th><th>exception</th></tr>
 *   <tr><td>BadRequest</td><td>400</td><td>{@link BadRequestException}</td></tr>
 *   <tr><td>Unauthorized</td><td>401</td><td>{@link UnauthorizedException}</td></tr>
 *   <tr><td>Forbidden</td><td>403</td><td>{@link ForbiddenException}</td></tr>
 *   <tr><td>NotFound</td><td>404</td><td>{@link NotFoundException}</td></tr>
 *   <tr><td>MethodNotAllowed</td><td>405</td><td>{@link MethodNotAllowedException}</td></tr>
 *   <tr><td>NotAcceptable</td><td>406</td><td>{@link NotAcceptableException}</td></tr>
 *   <tr><td>AlreadyExists</td><td>-</td><td>{@link AlreadyExistsException}</td></tr>
 *   <tr><td>Conflict</td><td>409</td><td>{@link ConflictException}</td></tr>
 *   <tr><td>Gone, Expired</td><td>410</td><td>{@link GoneException}</td></tr>
 *   <tr><td>RequestEntityTooLarge</td><td>413</td><td>{@link RequestEntityTooLargeException}</td></tr>
 *   <tr><td>UnsupportedMediaType</td><td>415</td><td>{@link UnsupportedMediaTypeException}</td></tr>
 *   <tr><td>Invalid</td><td>422</td><td>{@link InvalidException}</td></tr>
 *   <tr><td>TooManyRequests</td><td>429</td><td>{@link TooManyRequestsException}</td></tr>
 *   <tr><td>InternalError, StoreReadError</td><td>500</td><td>{@link InternalErrorException}</td></tr>
 *   <tr><td>ServiceUnavailable</td><td>503</td><td>{@link ServiceUnavailableException}</td></tr>
 *   <tr><td>Timeout, ServerTimeout</td><td>504</td><td>{@link ApiTimeoutException}</td></tr>
 *   <tr><td>other</td><td>other</td><td>plain {@link ApiException}</td></tr>
 * </table>
 *
 * <p>A reply whose body is not a {@code Status} (a proxy's HTML page, the plain-text
 * {@code 404 page not found}, an empty or truncated body) gets a Status synthesized as client-go's
 * {@code newUnstructuredResponseError} does: its reason and message follow the HTTP code, and one
 * cause of type {@code UnexpectedServerResponse} holds the body text (at most 2048 characters). When the
 * caller names the request's verb and resource, the message names them as client-go's does
 * ({@code the server could not find the requested resource (post gateways.gateway.networking.k8s.io)});
 * otherwise it ends with a short, single-line snippet of the body when the body is text.
 *
 * <p>Stateless and thread-safe.
 */
public final class ApiExceptions {

    /** The cause type client-go puts on errors built from a non-Status reply. */
    public static final String UNEXPECTED_SERVER_RESPONSE = "UnexpectedServerResponse";

    /** client-go's cap on the body text kept in the cause. */
    private static final int MAX_BODY_CHARS = 2048;
    /** Cap on the body snippet appended to the message. */
    private static final int MAX_SNIPPET_CHARS = 200;

    private ApiExceptions() {}

    /**
     * The exception for a failed reply.
     *
     * @param httpCode the HTTP status of the reply
     * @param contentType the reply's Content-Type, may be null
     * @param body the reply body, may be null or empty
     * @param retryAfter the Retry-After header's value, null if absent
     */
    public static ApiException from(int httpCode, String contentType, byte[] body, Duration retryAfter) {
        return from(httpCode, contentType, body, retryAfter, null, null, null);
    }

    /**
     * The exception for a failed reply to a request on a resource: as
     * {@link #from(int, String, byte[], Duration)}, and a reply that is not a Status names the request
     * as client-go's {@code newUnstructuredResponseError} does, after the message: {@code the server could
     * not find the requested resource (post gateways.gateway.networking.k8s.io)}, or with the object's name
     * ({@code (get foos.samplecontroller.k8s.io web)}); its details carry the group, the resource (as
     * {@code kind}, as client-go puts it) and the name. The body then stays in the cause only.
     *
     * @param httpCode the HTTP status of the reply
     * @param contentType the reply's Content-Type, may be null
     * @param body the reply body, may be null or empty
     * @param retryAfter the Retry-After header's value, null if absent
     * @param verb the request's HTTP method ({@code POST}, {@code GET}…); null to name no request
     * @param resource the resource requested; null to name no request
     * @param name the object's name in the request's path, or null
     */
    public static ApiException from(
            int httpCode,
            String contentType,
            byte[] body,
            Duration retryAfter,
            String verb,
            GroupResource resource,
            String name) {
        Status status = decodeStatus(httpCode, body);
        if (status == null) {
            boolean named = verb != null && resource != null;
            status = synthesize(httpCode, contentType, body == null ? new byte[0] : body, retryAfter, !named);
            if (named) {
                status = naming(status, verb, resource, name);
            }
        }
        return map(status, retryAfter);
    }

    /** The exception for a Status object (e.g. from a watch ERROR event). */
    public static ApiException from(Status status) {
        return map(status, null);
    }

    private static ApiException map(Status s, Duration retryAfter) {
        return switch (s.reasonOrEmpty()) {
            case "BadRequest" -> new BadRequestException(s, retryAfter);
            case "Unauthorized" -> new UnauthorizedException(s, retryAfter);
            case "Forbidden" -> new ForbiddenException(s, retryAfter);
            case "NotFound" -> new NotFoundException(s, retryAfter);
            case "MethodNotAllowed" -> new MethodNotAllowedException(s, retryAfter);
            case "NotAcceptable" -> new NotAcceptableException(s, retryAfter);
            case "AlreadyExists" -> new AlreadyExistsException(s, retryAfter);
            case "Conflict" -> new ConflictException(s, retryAfter);
            case "Gone", "Expired" -> new GoneException(s, retryAfter);
            case "RequestEntityTooLarge" -> new RequestEntityTooLargeException(s, retryAfter);
            case "UnsupportedMediaType" -> new UnsupportedMediaTypeException(s, retryAfter);
            case "Invalid" -> new InvalidException(s, retryAfter);
            case "TooManyRequests" -> new TooManyRequestsException(s, retryAfter);
            case "InternalError", "StoreReadError" -> new InternalErrorException(s, retryAfter);
            case "ServiceUnavailable" -> new ServiceUnavailableException(s, retryAfter);
            case "Timeout", "ServerTimeout" -> new ApiTimeoutException(s, retryAfter);
            default -> byCode(s, retryAfter);
        };
    }

    private static ApiException byCode(Status s, Duration retryAfter) {
        return switch (s.codeOrZero()) {
            case 400 -> new BadRequestException(s, retryAfter);
            case 401 -> new UnauthorizedException(s, retryAfter);
            case 403 -> new ForbiddenException(s, retryAfter);
            case 404 -> new NotFoundException(s, retryAfter);
            case 405 -> new MethodNotAllowedException(s, retryAfter);
            case 406 -> new NotAcceptableException(s, retryAfter);
            case 409 -> new ConflictException(s, retryAfter);
            case 410 -> new GoneException(s, retryAfter);
            case 413 -> new RequestEntityTooLargeException(s, retryAfter);
            case 415 -> new UnsupportedMediaTypeException(s, retryAfter);
            case 422 -> new InvalidException(s, retryAfter);
            case 429 -> new TooManyRequestsException(s, retryAfter);
            case 500 -> new InternalErrorException(s, retryAfter);
            case 503 -> new ServiceUnavailableException(s, retryAfter);
            case 504 -> new ApiTimeoutException(s, retryAfter);
            default -> new ApiException(s, retryAfter);
        };
    }

    /** The body as a Status when it is a JSON object of kind Status; its code defaults to the HTTP code. */
    private static Status decodeStatus(int httpCode, byte[] body) {
        if (body == null || !startsLikeJsonObject(body)) {
            return null;
        }
        try {
            JsonNode tree = KubeJson.mapper().readTree(body);
            JsonNode kind = tree == null ? null : tree.get("kind");
            if (kind == null || !"Status".equals(kind.asString())) {
                return null;
            }
            Status s = KubeJson.mapper().treeToValue(tree, Status.class);
            if (s.codeOrZero() == 0 && httpCode != 0) {
                s = new Status(
                        s.kind(),
                        s.apiVersion(),
                        s.metadata(),
                        s.status(),
                        s.message(),
                        s.reason(),
                        s.details(),
                        httpCode);
            }
            return s;
        } catch (JacksonException e) {
            return null;
        }
    }

    private static boolean startsLikeJsonObject(byte[] body) {
        for (byte b : body) {
            if (b == '{') {
                return true;
            }
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return false;
    }

    /**
     * A Status for a non-Status reply, as apimachinery's {@code NewGenericServerResponse}; with
     * {@code withSnippet}, a message that does not quote the body ends with a snippet of it.
     */
    private static Status synthesize(
            int code, String contentType, byte[] body, Duration retryAfter, boolean withSnippet) {
        String text = bodyText(contentType, body);
        String serverMessage = text == null ? "unknown" : text;
        String reason = "";
        String message = "the server responded with the status code " + code + " but did not return more information";
        boolean includesBody = false;
        switch (code) {
            case 409 -> {
                reason = "Conflict";
                message = "the server reported a conflict";
            }
            case 404 -> {
                reason = "NotFound";
                message = "the server could not find the requested resource";
            }
            case 400 -> {
                reason = "BadRequest";
                message = "the server rejected our request for an unknown reason";
            }
            case 401 -> {
                reason = "Unauthorized";
                message = "the server has asked for the client to provide credentials";
            }
            case 403 -> {
                reason = "Forbidden";
                message = text == null || text.isEmpty()
                        ? "the server does not allow access to the requested resource"
                        : text;
                includesBody = true;
            }
            case 406 -> {
                reason = "NotAcceptable";
                message = text == null || text.isEmpty()
                        ? "the server was unable to respond with a content type that the client supports"
                        : text;
                includesBody = true;
            }
            case 415 -> {
                reason = "UnsupportedMediaType";
                message = text == null || text.isEmpty()
                        ? "the server does not support the content type of the request"
                        : text;
                includesBody = true;
            }
            case 405 -> {
                reason = "MethodNotAllowed";
                message = "the server does not allow this method on the requested resource";
            }
            case 422 -> {
                reason = "Invalid";
                message = "the server rejected our request due to an error in our request";
            }
            case 503 -> {
                reason = "ServiceUnavailable";
                message = "the server is currently unable to handle the request";
            }
            case 504 -> {
                reason = "Timeout";
                message =
                        "the server was unable to return a response in the time allotted, but may still be processing the request";
            }
            case 429 -> {
                reason = "TooManyRequests";
                message = "the server has received too many requests and has asked us to try again later";
            }
            default -> {
                if (code >= 500) {
                    reason = "InternalError";
                    message = "an error on the server (\"" + snippet(serverMessage)
                            + "\") has prevented the request from succeeding";
                    includesBody = true;
                }
            }
        }
        if (!includesBody && withSnippet && text != null && !text.isEmpty()) {
            message = message + ": " + snippet(text);
        } else if (includesBody) {
            message = singleLine(message);
        }
        Integer retrySeconds = retryAfter == null ? null : (int) Math.min(Integer.MAX_VALUE, retryAfter.toSeconds());
        Status.Details details = new Status.Details(
                null,
                null,
                null,
                null,
                List.of(new Status.Cause(UNEXPECTED_SERVER_RESPONSE, serverMessage, null)),
                retrySeconds);
        return new Status(
                "Status", "v1", Map.of(), Status.FAILURE, message, reason.isEmpty() ? null : reason, details, code);
    }

    /**
     * {@code status} naming the request as apimachinery's {@code NewGenericServerResponse} does:
     * {@code <message> (<verb> <resource.group>[ <name>])}, the group, resource and name in the details.
     */
    private static Status naming(Status status, String verb, GroupResource resource, String name) {
        String target =
                verb.toLowerCase(Locale.ROOT) + " " + resource + (name == null || name.isEmpty() ? "" : " " + name);
        Status.Details d = status.details();
        Status.Details details = new Status.Details(
                name == null || name.isEmpty() ? null : name,
                resource.group(),
                resource.resource(),
                d.uid(),
                d.causes(),
                d.retryAfterSeconds());
        return new Status(
                status.kind(),
                status.apiVersion(),
                status.metadata(),
                status.status(),
                status.message() + " (" + target + ")",
                status.reason(),
                details,
                status.code());
    }

    /**
     * The trimmed body text (at most 2048 characters), or null when the body is not text: client-go
     * trusts only {@code text/*} (or a missing Content-Type); kubeloop also accepts any body that is
     * valid UTF-8 without control characters, so an invalid JSON reply still shows what came back.
     */
    private static String bodyText(String contentType, byte[] body) {
        if (body.length == 0) {
            return "";
        }
        String decoded;
        if (body.length > MAX_BODY_CHARS * 4) {
            // truncated: a multi-byte character may be cut at the end, so decode leniently
            decoded = new String(body, 0, MAX_BODY_CHARS * 4, StandardCharsets.UTF_8);
        } else {
            try {
                decoded = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(body))
                        .toString();
            } catch (CharacterCodingException e) {
                if (!isText(contentType)) {
                    return null;
                }
                decoded = new String(body, StandardCharsets.UTF_8);
            }
        }
        if (!isText(contentType) && hasControlCharacters(decoded)) {
            return null;
        }
        String trimmed = decoded.strip();
        return trimmed.length() > MAX_BODY_CHARS ? trimmed.substring(0, MAX_BODY_CHARS) : trimmed;
    }

    private static boolean isText(String contentType) {
        return contentType == null
                || contentType.isBlank()
                || contentType.strip().toLowerCase(Locale.ROOT).startsWith("text/");
    }

    private static boolean hasControlCharacters(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') {
                return true;
            }
        }
        return false;
    }

    private static String snippet(String text) {
        String line = singleLine(text);
        return line.length() <= MAX_SNIPPET_CHARS ? line : line.substring(0, MAX_SNIPPET_CHARS) + "...";
    }

    private static String singleLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }
}
