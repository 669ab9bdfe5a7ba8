package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.NotAcceptableException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.internal.RequestInfo;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.admission.Admission;
import io.kubeloop.apiserver.internal.auth.AccessControl;
import io.kubeloop.apiserver.internal.auth.AuditLog;
import io.kubeloop.apiserver.internal.metrics.ServerMetrics;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ListParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ScaleSubresource;
import io.kubeloop.apiserver.internal.schema.KubernetesRelease;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's Jetty handler: access control (authentication, impersonation, RBAC, audit), URL routing, discovery, health,
 * version, OpenAPI seam, and the resource verbs over {@link ObjectRegistry}, including chunked watches.
 * Every failure becomes a Status with the right HTTP code; nothing a client sends can crash it.
 *
 * <p><b>Thread safety.</b> Thread-safe; one (virtual) thread per request, watches block theirs.
 */
public final class ApiHandler extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
    private static final String JSON = "application/json";

    private final ObjectRegistry registry;
    private final Discovery discovery;
    private final AccessControl access;
    private final Admission admission;
    private final HttpOptions options;
    private final OpenApiDocuments openApi;
    private final Ticker clock;
    private final ScaleSubresource scales;
    private final ServerMetrics metrics;
    private final ReentrantLock inFlightLock = new ReentrantLock();
    private final Condition idle = inFlightLock.newCondition();
    /** Guarded by {@link #inFlightLock}: requests being handled, up to their audit entry. */
    private int inFlight;

    /**
     * A handler serving {@code registry} to the requests {@code access} admits, writes passed through
     * {@code admission}, every answer counted in {@code metrics} (served on {@code /metrics}).
     */
    public ApiHandler(
            ObjectRegistry registry,
            AccessControl access,
            Admission admission,
            HttpOptions options,
            OpenApiDocuments openApi,
            Ticker clock,
            ServerMetrics metrics) {
        this.registry = registry;
        this.discovery = new Discovery(registry.resources());
        this.access = access;
        this.admission = admission;
        this.options = options;
        this.openApi = openApi;
        this.clock = clock;
        this.scales = new ScaleSubresource(registry);
        this.metrics = metrics;
    }

    ScaleSubresource scales() {
        return scales;
    }

    ObjectRegistry registry() {
        return registry;
    }

    HttpOptions options() {
        return options;
    }

    AccessControl access() {
        return access;
    }

    Admission admission() {
        return admission;
    }

    /**
     * Authenticates and authorizes a request: who sent it and what it asks, as whom.
     *
     * @throws ApiException 401 for bad credentials, 403 when impersonation or the request is not allowed
     */
    AccessControl.Admitted admit(Request request) {
        AccessControl.Admitted admitted = authenticate(request);
        access.authorize(admitted.attributes());
        return admitted;
    }

    /** Who sent the request and what it asks, as whom (401 for bad credentials, 403 for impersonation refused). */
    private AccessControl.Admitted authenticate(Request request) {
        Fields q = Request.extractQueryParameters(request);
        return access.authenticate(
                request.getMethod(),
                Request.getPathInContext(request),
                q::getValue,
                request.getHeaders().get(HttpHeader.AUTHORIZATION),
                clientCertificates(request),
                impersonationHeaders(request));
    }

    private static X509Certificate[] clientCertificates(Request request) {
        return request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData ssl
                ? ssl.peerCertificates()
                : null;
    }

    private static Map<String, List<String>> impersonationHeaders(Request request) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (HttpField f : request.getHeaders()) {
            if (f.getName().regionMatches(true, 0, "Impersonate-", 0, 12)) {
                out.computeIfAbsent(f.getLowerCaseName(), k -> new ArrayList<>())
                        .add(f.getValue());
            }
        }
        return out;
    }

    /**
     * Waits until no request is being handled (each one's audit entry written), at most {@code timeout}: when
     * the server stops, the requests still answered (the watches it just ended) are audited before the audit
     * log closes.
     *
     * @return whether every request ended in time
     */
    public boolean awaitIdle(Duration timeout) {
        long nanos = timeout.toNanos();
        inFlightLock.lock();
        try {
            while (inFlight > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = idle.awaitNanos(nanos);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return inFlight == 0;
        } finally {
            inFlightLock.unlock();
        }
    }

    private void requestStarted() {
        inFlightLock.lock();
        try {
            inFlight++;
        } finally {
            inFlightLock.unlock();
        }
    }

    private void requestEnded() {
        inFlightLock.lock();
        try {
            if (--inFlight == 0) {
                idle.signalAll();
            }
        } finally {
            inFlightLock.unlock();
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        requestStarted();
        try {
            handleCounted(request, response, callback);
        } finally {
            requestEnded();
        }
        return true;
    }

    private void handleCounted(Request request, Response response, Callback callback) {
        AccessControl.Admitted[] admitted = new AccessControl.Admitted[1];
        String[] created = new String[1]; // the name of an object a POST created, for the audit event
        Instant received = clock.instant();
        try {
            serve(request, response, callback, admitted, created);
        } catch (ApiException e) {
            writeStatus(response, callback, e.status());
        } catch (RequestInfo.Unresolvable e) {
            unresolvable(request, response, callback, e);
        } catch (RuntimeException e) {
            if (e instanceof HttpException h && h.getCode() < 500) {
                // Jetty's own refusal of what the client sent, e.g. a query string with a bad percent-encoding
                writeStatus(response, callback, JettyErrors.status(h.getCode(), h.getReason()));
                return;
            }
            LOG.warn("internal error serving {} {}", request.getMethod(), request.getHttpURI(), e);
            writeStatus(
                    response,
                    callback,
                    Status.failure(
                            500,
                            "InternalError",
                            "Internal error occurred: " + e.getClass().getSimpleName() + ": " + e.getMessage()));
        } finally {
            metrics.request(
                    admitted[0] == null ? null : admitted[0].attributes(),
                    request.getMethod(),
                    isApply(request),
                    response.getStatus(),
                    Duration.between(received, clock.instant()));
            if (admitted[0] != null && access.audits()) {
                access.audit(new AuditLog.Entry(
                        created[0] == null
                                ? admitted[0].attributes()
                                : admitted[0].attributes().named(created[0]),
                        admitted[0].authenticated(),
                        request.getMethod(),
                        request.getHttpURI().getPathQuery(),
                        Request.getRemoteAddr(request),
                        request.getHeaders().get(HttpHeader.USER_AGENT),
                        response.getStatus(),
                        received,
                        clock.instant()));
            }
        }
    }

    /**
     * kube-apiserver's answer to a path its request-info resolver cannot read ({@code /api/v1/watch}), given
     * before authentication: a plain-text 500 quoting the request URI, {@code &}, {@code <} and {@code >}
     * escaped as HTML entities.
     */
    private static void unresolvable(Request request, Response response, Callback callback, RuntimeException e) {
        String uri = request.getHttpURI().getPathQuery();
        String text = "Internal Server Error: " + goQuote(uri) + ": failed to create RequestInfo: " + e.getMessage()
                + ", " + uri;
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        send(
                response,
                callback,
                500,
                "text/plain; charset=utf-8",
                (text + "\n").getBytes(StandardCharsets.UTF_8),
                Map.of("X-Content-Type-Options", "nosniff"));
    }

    /** Go's {@code %q} of a printable ASCII string: in double quotes, with {@code "} and {@code \} escaped. */
    private static String goQuote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static boolean isApply(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return type != null && type.startsWith("application/apply-patch");
    }

    private void serve(
            Request request,
            Response response,
            Callback callback,
            AccessControl.Admitted[] admitted,
            String[] created) {
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        // health and version too: the bootstrap policy lets anyone read them, even anonymously, but a bad
        // token is refused there as everywhere, and with anonymous requests off so is no token at all
        admitted[0] = authenticate(request);
        access.authorize(admitted[0].attributes());
        switch (path) {
            case "/healthz", "/livez", "/readyz" -> {
                Fields q = Request.extractQueryParameters(request);
                String body = q.get("verbose") != null
                        ? "[+]ping ok\n[+]log ok\n[+]etcd ok\n" + path.substring(1) + " check passed\n"
                        : "ok";
                send(
                        response,
                        callback,
                        200,
                        "text/plain; charset=utf-8",
                        body.getBytes(StandardCharsets.UTF_8),
                        Map.of());
                return;
            }
            case "/version" -> {
                send(response, callback, 200, JSON, versionJson(), Map.of());
                return;
            }
            default -> {}
        }
        if (path.equals("/metrics")) {
            send(
                    response,
                    callback,
                    200,
                    "text/plain; version=0.0.4; charset=utf-8",
                    metrics.scrape().getBytes(StandardCharsets.UTF_8),
                    Map.of());
            return;
        }
        Accepts accepts = Accepts.parse(request.getHeaders().get(HttpHeader.ACCEPT));
        if (path.startsWith("/openapi/")) {
            Optional<OpenApiDocuments.Reply> reply = openApi.serve(
                    path, request.getHttpURI().getQuery(), request.getHeaders().get(HttpHeader.ACCEPT));
            if (reply.isEmpty()) {
                notFound(response, callback);
            } else {
                OpenApiDocuments.Reply r = reply.get();
                send(response, callback, r.status(), r.contentType(), r.body(), r.headers());
            }
            return;
        }
        if (discovery(path, method, accepts, request, response, callback)) {
            return;
        }
        Optional<ResourceRoute> route = ResourceRoute.parse(path, registry.resources());
        if (route.isEmpty()) {
            notFound(response, callback);
            return;
        }
        if (!accepts.acceptable()) {
            throw new NotAcceptableException(Status.failure(
                    406,
                    "NotAcceptable",
                    "only the following media types are accepted: application/json, application/yaml"));
        }
        new ResourceRequest(
                        this,
                        route.get(),
                        request,
                        response,
                        callback,
                        accepts,
                        admitted[0].attributes(),
                        name -> created[0] = name)
                .serve();
    }

    private boolean discovery(
            String path, String method, Accepts accepts, Request request, Response response, Callback callback) {
        Discovery.Doc doc;
        String contentType = JSON;
        String[] segs = path.replaceAll("^/+|/+$", "").split("/");
        if (path.equals("/api") || path.equals("/apis")) {
            if (accepts.aggregatedDiscovery()) {
                doc = discovery.aggregated(path.equals("/api"), accepts.aggregatedVersion());
                contentType = "application/json;g=apidiscovery.k8s.io;v=" + accepts.aggregatedVersion()
                        + ";as=APIGroupDiscoveryList";
            } else {
                doc = path.equals("/api") ? discovery.apiVersions() : discovery.groupList();
            }
        } else if (segs.length == 2 && segs[0].equals("api")) {
            doc = discovery.resourceList("", segs[1]);
        } else if (segs.length == 2 && segs[0].equals("apis")) {
            doc = discovery.group(segs[1]);
        } else if (segs.length == 3 && segs[0].equals("apis")) {
            doc = discovery.resourceList(segs[1], segs[2]);
        } else {
            return false;
        }
        if (doc == null) {
            notFound(response, callback);
            return true;
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            writeStatus(
                    response, callback, ApiErrors.methodNotAllowed(method, path).status());
            return true;
        }
        Map<String, String> headers = Map.of("ETag", doc.etag(), "Vary", "Accept", "Cache-Control", "public");
        String inm = request.getHeaders().get(HttpHeader.IF_NONE_MATCH);
        if (inm != null && inm.strip().equals(doc.etag())) {
            send(response, callback, 304, contentType, new byte[0], headers);
            return true;
        }
        send(response, callback, 200, contentType, doc.body(), headers);
        return true;
    }

    private static byte[] versionJson() {
        // the release's version, "+kubeloop" as build metadata (ignored by version comparisons, as k3s's "+k3s1")
        String major = String.valueOf(KubernetesRelease.MAJOR);
        String minor = String.valueOf(KubernetesRelease.MINOR);
        return ("{\"major\":\"" + major + "\",\"minor\":\"" + minor + "\",\"emulationMajor\":\"" + major
                        + "\",\"emulationMinor\":\"" + minor + "\",\"gitVersion\":\"" + KubernetesRelease.tag()
                        + "+kubeloop\",\"gitCommit\":\"0000000000000000000000000000000000000000\","
                        + "\"gitTreeState\":\"clean\",\"buildDate\":\"2025-01-01T00:00:00Z\",\"goVersion\":\"java"
                        + Runtime.version().feature() + "\",\"compiler\":\"javac\",\"platform\":\""
                        + System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + System.getProperty("os.arch")
                        + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static void notFound(Response response, Callback callback) {
        send(
                response,
                callback,
                404,
                "text/plain; charset=utf-8",
                "404 page not found\n".getBytes(StandardCharsets.UTF_8),
                Map.of());
    }

    static void send(
            Response response,
            Callback callback,
            int code,
            String contentType,
            byte[] body,
            Map<String, String> headers) {
        discardUnreadBody(response.getRequest());
        response.setStatus(code);
        if (contentType != null) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        }
        headers.forEach((k, v) -> response.getHeaders().put(k, v));
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /**
     * Reads what is left of the request's body (nothing when a handler read it all) and drops it, up to
     * {@link Bodies#MOST_DISCARDED}, before an answer: a GET with a body, or a request refused before its body was
     * read, gets its answer.
     */
    private static void discardUnreadBody(Request request) {
        if (request.getHeaders().contains(HttpHeader.EXPECT, "100-continue")) {
            return; // reading would ask the client for the body; unasked, it sends none and reads the answer
        }
        try (InputStream in = Request.asInputStream(request)) {
            Bodies.discard(in, Bodies.MOST_DISCARDED);
        } catch (IOException | RuntimeException alreadyFailed) {
            // the body was cut short or already abandoned: Jetty ends the stream or the connection
        }
    }

    /** {@code status} as sent: kind, apiVersion and an empty metadata object, as kube-apiserver writes it. */
    static Status asSent(Status status) {
        return status.metadata() == null
                ? new Status(
                        "Status",
                        "v1",
                        Map.of(),
                        status.status(),
                        status.message(),
                        status.reason(),
                        status.details(),
                        status.code())
                : status;
    }

    static void writeStatus(Response response, Callback callback, Status status) {
        Status s = asSent(status);
        Map<String, String> headers = s.details() != null && s.details().retryAfterSeconds() != null
                ? Map.of("Retry-After", Integer.toString(s.details().retryAfterSeconds()))
                : Map.of();
        send(
                response,
                callback,
                s.codeOrZero() == 0 ? 500 : s.codeOrZero(),
                JSON,
                KubeJson.mapper().writeValueAsBytes(s),
                headers);
    }

    Instant deadline(ListParams params) {
        Duration d = params.timeoutSeconds() != null && params.timeoutSeconds() > 0
                ? Duration.ofSeconds(params.timeoutSeconds())
                : options.minWatchTimeout()
                        .plusSeconds(ThreadLocalRandom.current()
                                .nextLong(Math.max(1, options.minWatchTimeout().toSeconds())));
        return clock.instant().plus(d);
    }

    Ticker clock() {
        return clock;
    }
}
