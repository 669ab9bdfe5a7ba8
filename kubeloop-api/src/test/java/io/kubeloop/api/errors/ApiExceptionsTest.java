package io.kubeloop.api.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApiExceptionsTest {

    private static byte[] statusJson(String reason, int code, String message) {
        return ("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"%s","reason":"%s","details":{"name":"x","kind":"pods"},"code":%d}
                """.formatted(message, reason, code)).getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> reasons() {
        return Stream.of(
                Arguments.of("NotFound", 404, NotFoundException.class),
                Arguments.of("AlreadyExists", 409, AlreadyExistsException.class),
                Arguments.of("Conflict", 409, ConflictException.class),
                Arguments.of("Invalid", 422, InvalidException.class),
                Arguments.of("BadRequest", 400, BadRequestException.class),
                Arguments.of("Unauthorized", 401, UnauthorizedException.class),
                Arguments.of("Forbidden", 403, ForbiddenException.class),
                Arguments.of("MethodNotAllowed", 405, MethodNotAllowedException.class),
                Arguments.of("Gone", 410, GoneException.class),
                Arguments.of("Expired", 410, GoneException.class),
                Arguments.of("TooManyRequests", 429, TooManyRequestsException.class),
                Arguments.of("InternalError", 500, InternalErrorException.class),
                Arguments.of("StoreReadError", 500, InternalErrorException.class),
                Arguments.of("Timeout", 504, ApiTimeoutException.class),
                Arguments.of("ServerTimeout", 500, ApiTimeoutException.class),
                Arguments.of("UnsupportedMediaType", 415, UnsupportedMediaTypeException.class),
                Arguments.of("NotAcceptable", 406, NotAcceptableException.class),
                Arguments.of("RequestEntityTooLarge", 413, RequestEntityTooLargeException.class),
                Arguments.of("ServiceUnavailable", 503, ServiceUnavailableException.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reasons")
    void statusBodyMapsByReason(String reason, int code, Class<? extends ApiException> expected) {
        ApiException e = ApiExceptions.from(code, "application/json", statusJson(reason, code, "boom " + reason), null);

        assertThat(e).isExactlyInstanceOf(expected).hasMessage("boom " + reason);
        assertThat(e.reason()).isEqualTo(reason);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.status().details().name()).isEqualTo("x");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reasons")
    void reasonWinsOverAMismatchedCode(String reason, int code, Class<? extends ApiException> expected) {
        ApiException e = ApiExceptions.from(Status.failure(418, reason, "m"));

        assertThat(e).isExactlyInstanceOf(expected);
    }

    static Stream<Arguments> codes() {
        return Stream.of(
                Arguments.of(400, BadRequestException.class),
                Arguments.of(401, UnauthorizedException.class),
                Arguments.of(403, ForbiddenException.class),
                Arguments.of(404, NotFoundException.class),
                Arguments.of(405, MethodNotAllowedException.class),
                Arguments.of(406, NotAcceptableException.class),
                Arguments.of(409, ConflictException.class),
                Arguments.of(410, GoneException.class),
                Arguments.of(413, RequestEntityTooLargeException.class),
                Arguments.of(415, UnsupportedMediaTypeException.class),
                Arguments.of(422, InvalidException.class),
                Arguments.of(429, TooManyRequestsException.class),
                Arguments.of(500, InternalErrorException.class),
                Arguments.of(503, ServiceUnavailableException.class),
                Arguments.of(504, ApiTimeoutException.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codes")
    void unknownReasonMapsByCode(int code, Class<? extends ApiException> expected) {
        assertThat(ApiExceptions.from(Status.failure(code, "SomethingNew", "m")))
                .isExactlyInstanceOf(expected);
        assertThat(ApiExceptions.from(Status.failure(code, null, "m"))).isExactlyInstanceOf(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codes")
    void emptyBodyMapsByCodeWithClientGoMessage(int code, Class<? extends ApiException> expected) {
        ApiException e = ApiExceptions.from(code, null, new byte[0], null);

        assertThat(e).isExactlyInstanceOf(expected);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage()).isNotBlank();
        assertThat(e.status().causes())
                .singleElement()
                .satisfies(c -> assertThat(c.reason()).isEqualTo(ApiExceptions.UNEXPECTED_SERVER_RESPONSE));
    }

    @Test
    void unknownReasonAndUnknownCodeGivesPlainApiException() {
        ApiException e = ApiExceptions.from(Status.failure(418, "Teapot", "short and stout"));

        assertThat(e).isExactlyInstanceOf(ApiException.class).hasMessage("short and stout");
        assertThat(e.code()).isEqualTo(418);
    }

    @Test
    void plainText404KeepsClientGoMessageAndTheBody() {
        ApiException e = ApiExceptions.from(
                404, "text/plain; charset=utf-8", "404 page not found\n".getBytes(StandardCharsets.UTF_8), null);

        assertThat(e)
                .isInstanceOf(NotFoundException.class)
                .hasMessage("the server could not find the requested resource: 404 page not found");
        assertThat(e.reason()).isEqualTo("NotFound");
        assertThat(e.status().causes().getFirst().message()).isEqualTo("404 page not found");
    }

    @Test
    void plainText404OfACreateNamesVerbAndResourceAsClientGo() {
        ApiException e = ApiExceptions.from(
                404,
                "text/plain; charset=utf-8",
                "404 page not found\n".getBytes(StandardCharsets.UTF_8),
                null,
                "POST",
                new GroupResource("gateway.networking.k8s.io", "gateways"),
                null);

        assertThat(e)
                .isInstanceOf(NotFoundException.class)
                .hasMessage("the server could not find the requested resource"
                        + " (post gateways.gateway.networking.k8s.io)");
        assertThat(e.status().details().group()).isEqualTo("gateway.networking.k8s.io");
        assertThat(e.status().details().kind()).isEqualTo("gateways");
        assertThat(e.status().details().name()).isNull();
        assertThat(e.status().causes().getFirst().message()).isEqualTo("404 page not found");
    }

    @Test
    void namedRequestOnACoreResourceAddsTheObjectName() {
        ApiException e = ApiExceptions.from(
                403,
                "text/plain",
                "no way".getBytes(StandardCharsets.UTF_8),
                null,
                "GET",
                new GroupResource("", "configmaps"),
                "web");

        assertThat(e).isInstanceOf(ForbiddenException.class).hasMessage("no way (get configmaps web)");
        assertThat(e.status().details().name()).isEqualTo("web");
    }

    @Test
    void aStatusBodyIsKeptAsItIsEvenWhenTheRequestIsNamed() {
        ApiException e = ApiExceptions.from(
                404,
                "application/json",
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404,\"message\":\"foos.example.com \\\"x\\\" not found\"}"
                        .getBytes(StandardCharsets.UTF_8),
                null,
                "GET",
                new GroupResource("example.com", "foos"),
                "x");

        assertThat(e).hasMessage("foos.example.com \"x\" not found");
    }

    @Test
    void unauthorizedWithoutStatusAsksForCredentials() {
        ApiException e = ApiExceptions.from(401, null, new byte[0], null);

        assertThat(e)
                .isInstanceOf(UnauthorizedException.class)
                .hasMessage("the server has asked for the client to provide credentials");
    }

    @Test
    void htmlFromAProxyBecomesInternalErrorQuotingTheBody() {
        String html = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>";
        ApiException e = ApiExceptions.from(502, "text/html", html.getBytes(StandardCharsets.UTF_8), null);

        assertThat(e)
                .isInstanceOf(InternalErrorException.class)
                .hasMessage("an error on the server (\"<html> <head><title>502 Bad Gateway</title></head> "
                        + "<body>nginx</body> </html>\") has prevented the request from succeeding");
        assertThat(e.code()).isEqualTo(502);
    }

    @Test
    void forbiddenPlainTextKeepsTheServerMessage() {
        ApiException e = ApiExceptions.from(403, "text/plain", "no way".getBytes(StandardCharsets.UTF_8), null);

        assertThat(e).isInstanceOf(ForbiddenException.class).hasMessage("no way");
    }

    @Test
    void invalidJsonStillShowsWhatCameBack() {
        ApiException e =
                ApiExceptions.from(500, "application/json", "{\"kind\":\"Sta".getBytes(StandardCharsets.UTF_8), null);

        assertThat(e).isInstanceOf(InternalErrorException.class);
        assertThat(e.getMessage()).contains("{\"kind\":\"Sta");
    }

    @Test
    void jsonThatIsNotAStatusIsTreatedAsUnstructured() {
        ApiException e = ApiExceptions.from(
                404,
                "application/json",
                "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}".getBytes(StandardCharsets.UTF_8),
                null);

        assertThat(e).isInstanceOf(NotFoundException.class);
        assertThat(e.getMessage()).startsWith("the server could not find the requested resource");
    }

    @Test
    void binaryBodyIsNotQuoted() {
        byte[] protobuf = {'k', '8', 's', 0, 1, 2, 3, (byte) 0xff};
        ApiException e = ApiExceptions.from(400, "application/vnd.kubernetes.protobuf", protobuf, null);

        assertThat(e).hasMessage("the server rejected our request for an unknown reason");
        assertThat(e.status().causes().getFirst().message()).isEqualTo("unknown");
    }

    @Test
    void longBodyIsTruncatedInMessageAndCause() {
        String body = "x".repeat(10_000);
        ApiException e = ApiExceptions.from(400, "text/plain", body.getBytes(StandardCharsets.UTF_8), null);

        assertThat(e.getMessage()).hasSizeLessThan(300).endsWith("...");
        assertThat(e.status().causes().getFirst().message()).hasSize(2048);
    }

    @Test
    void statusWithoutCodeTakesTheHttpCode() {
        byte[] body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"gone\"}"
                .getBytes(StandardCharsets.UTF_8);

        ApiException e = ApiExceptions.from(410, "application/json", body, null);

        assertThat(e).isInstanceOf(GoneException.class).hasMessage("gone");
        assertThat(e.code()).isEqualTo(410);
    }

    @Test
    void expiredIsGoneAndReportsExpired() {
        GoneException expired =
                (GoneException) ApiExceptions.from(Status.failure(410, "Expired", "too old resource version"));
        GoneException gone = (GoneException) ApiExceptions.from(Status.failure(410, "Gone", "gone"));

        assertThat(expired.isExpired()).isTrue();
        assertThat(gone.isExpired()).isFalse();
    }

    @Test
    void invalidKeepsItsCauses() {
        byte[] body = """
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"Deployment.apps \\"web\\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                 "reason":"Invalid","details":{"name":"web","group":"apps","kind":"Deployment",
                 "causes":[{"reason":"FieldValueInvalid","message":"Invalid value: -1","field":"spec.replicas"}]},"code":422}
                """.getBytes(StandardCharsets.UTF_8);

        ApiException e = ApiExceptions.from(422, "application/json", body, null);

        assertThat(e).isInstanceOf(InvalidException.class);
        assertThat(((InvalidException) e).causes())
                .containsExactly(new Status.Cause("FieldValueInvalid", "Invalid value: -1", "spec.replicas"));
    }

    @Test
    void tooManyRequestsPrefersTheRetryAfterHeader() {
        byte[] body = """
                {"kind":"Status","apiVersion":"v1","status":"Failure","message":"slow down","reason":"TooManyRequests",
                 "details":{"retryAfterSeconds":7},"code":429}
                """.getBytes(StandardCharsets.UTF_8);

        TooManyRequestsException withHeader =
                (TooManyRequestsException) ApiExceptions.from(429, "application/json", body, Duration.ofSeconds(3));
        TooManyRequestsException withoutHeader =
                (TooManyRequestsException) ApiExceptions.from(429, "application/json", body, null);

        assertThat(withHeader.retryAfter()).contains(Duration.ofSeconds(3));
        assertThat(withoutHeader.retryAfter()).contains(Duration.ofSeconds(7));
    }

    @Test
    void retryAfterHeaderOnUnstructuredReplyIsKeptInDetails() {
        ApiException e =
                ApiExceptions.from(503, "text/plain", "busy".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));

        assertThat(e)
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessage("the server is currently unable to handle the request: busy");
        assertThat(e.retryAfter()).contains(Duration.ofSeconds(5));
        assertThat(e.status().details().retryAfterSeconds()).isEqualTo(5);
    }

    @Test
    void serverTimeoutSuggestsDelayFromDetails() {
        Status s = new Status(
                "Status",
                "v1",
                null,
                Status.FAILURE,
                "try later",
                "ServerTimeout",
                new Status.Details(null, null, "pods", null, null, 2),
                500);

        ApiException e = ApiExceptions.from(s);

        assertThat(e).isInstanceOf(ApiTimeoutException.class);
        assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
    }

    @Test
    void noHintMeansNoRetryAfter() {
        assertThat(ApiExceptions.from(Status.failure(429, "TooManyRequests", "m"))
                        .retryAfter())
                .isEmpty();
    }

    @Test
    void conflictWithoutStatusIsConflict() {
        assertThat(ApiExceptions.from(409, "text/plain", "x".getBytes(StandardCharsets.UTF_8), null))
                .isInstanceOf(ConflictException.class)
                .hasMessage("the server reported a conflict: x");
    }

    @Test
    void unknownCodeWithoutStatusSaysSo() {
        ApiException e = ApiExceptions.from(418, null, null, null);

        assertThat(e)
                .isExactlyInstanceOf(ApiException.class)
                .hasMessage("the server responded with the status code 418 but did not return more information");
    }
}
