package io.kubeloop.apiserver.internal.http;

import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ListParams;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.client.FieldValidation;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Parses a resource request's query parameters (and a delete's options body) into the registry's
 * {@link ListParams}, {@link WriteContext} and {@link DeleteParams}; malformed values become 400 Statuses.
 *
 * <p><b>Thread safety.</b> Stateless; static methods only, safe from any thread.
 */
final class QueryParams {
    private static final String JSON = "application/json";

    private QueryParams() {}

    static ListParams listParams(Fields q, boolean watch) {
        String limit = q.getValue("limit");
        String timeout = q.getValue("timeoutSeconds");
        String sie = q.getValue("sendInitialEvents");
        try {
            return new ListParams(
                    q.getValue("resourceVersion"),
                    emptyToNull(q.getValue("resourceVersionMatch")),
                    limit == null || limit.isEmpty() ? 0 : Long.parseLong(limit),
                    q.getValue("continue"),
                    q.getValue("labelSelector"),
                    q.getValue("fieldSelector"),
                    watch,
                    bool(q.getValue("allowWatchBookmarks")),
                    sie == null ? null : bool(sie),
                    timeout == null || timeout.isEmpty() ? null : Long.parseLong(timeout));
        } catch (NumberFormatException e) {
            throw ApiErrors.badRequest("invalid number in query parameters: " + e.getMessage());
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Kubernetes boolean params: absent, {@code 0}, {@code false} = false; anything else = true. */
    static boolean bool(String v) {
        return v != null && !v.equals("0") && !v.equalsIgnoreCase("false");
    }

    /** The {@code fieldValidation} parameter: absent or empty is {@code Warn}; another value is a 400. */
    static FieldValidation fieldValidation(String v) {
        if (v == null || v.isEmpty()) {
            return FieldValidation.WARN;
        }
        for (FieldValidation f : FieldValidation.values()) {
            if (f.value().equals(v)) {
                return f;
            }
        }
        throw ApiErrors.badRequest(
                "fieldValidation must be one of \"Ignore\", \"Warn\", or \"Strict\"; got \"" + v + "\"");
    }

    static WriteContext writeContext(Fields q, Request request) {
        String dryRun = q.getValue("dryRun");
        if (dryRun != null && !dryRun.isEmpty() && !dryRun.equals("All")) {
            throw ApiErrors.invalidOptions(
                    "CreateOptions", ApiErrors.FieldError.notSupported("dryRun", dryRun, List.of("All")));
        }
        return new WriteContext(
                q.getValue("fieldManager"),
                request.getHeaders().get(HttpHeader.USER_AGENT),
                "All".equals(dryRun),
                fieldValidation(q.getValue("fieldValidation")),
                bool(q.getValue("force")));
    }

    static DeleteParams deleteParams(Fields q, byte[] body, String contentType) {
        String policy = q.getValue("propagationPolicy");
        String orphan = q.getValue("orphanDependents");
        String grace = q.getValue("gracePeriodSeconds");
        String uid = null;
        String rv = null;
        if (body.length > 0) {
            ObjectNode opts = Bodies.object(body, contentType == null || contentType.isBlank() ? JSON : contentType);
            policy = opts.path("propagationPolicy").isString()
                    ? opts.get("propagationPolicy").asString()
                    : policy;
            orphan = opts.path("orphanDependents").isBoolean()
                    ? opts.get("orphanDependents").asString()
                    : orphan;
            grace = opts.path("gracePeriodSeconds").isNumber()
                    ? opts.get("gracePeriodSeconds").asString()
                    : grace;
            JsonNode pre = opts.path("preconditions");
            uid = pre.path("uid").isString() ? pre.get("uid").asString() : null;
            rv = pre.path("resourceVersion").isString()
                    ? pre.get("resourceVersion").asString()
                    : null;
        }
        try {
            return new DeleteParams(
                    policy,
                    orphan == null ? null : bool(orphan),
                    uid,
                    rv,
                    grace == null ? null : Long.parseLong(grace));
        } catch (NumberFormatException e) {
            throw ApiErrors.badRequest("invalid gracePeriodSeconds: " + grace);
        }
    }
}
