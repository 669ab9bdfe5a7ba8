package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import java.time.temporal.ChronoUnit;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The TokenRequest API ({@code POST …/serviceaccounts/NAME/token}, what {@code kubectl create token}
 * sends): a signed token of the ServiceAccount for the requested audiences (the server's by default) and
 * duration ({@code expirationSeconds}, one hour by default, at least ten minutes), answered as the
 * TokenRequest with its {@code status.token} and {@code status.expirationTimestamp}.
 *
 * <p>Thread-safe (stateless over thread-safe collaborators).
 */
public final class TokenRequests {

    /** Default lifetime of a requested token, as kube-apiserver's. */
    static final long DEFAULT_SECONDS = 3600;
    /** The shortest lifetime a TokenRequest may ask for. */
    static final long MIN_SECONDS = 600;
    /** The longest: 2^32 seconds. */
    static final long MAX_SECONDS = 1L << 32;

    private final ServiceAccountTokens tokens;
    private final ServiceAccountTokens.Accounts accounts;

    public TokenRequests(ServiceAccountTokens tokens, ServiceAccountTokens.Accounts accounts) {
        this.tokens = tokens;
        this.accounts = accounts;
    }

    /**
     * Issues a token of ServiceAccount {@code namespace/name} as {@code body} asks.
     *
     * @throws io.kubeloop.api.errors.NotFoundException when the ServiceAccount does not exist
     * @throws io.kubeloop.api.errors.InvalidException for a duration out of bounds
     */
    public ObjectNode create(String namespace, String name, ObjectNode body) {
        String uid = accounts.uid(namespace, name).orElseThrow(() -> ApiErrors.notFound("", "serviceaccounts", name));
        JsonNode spec = body.path("spec");
        long seconds = spec.path("expirationSeconds").isNumber()
                ? spec.path("expirationSeconds").asLong()
                : DEFAULT_SECONDS;
        if (seconds < MIN_SECONDS) {
            throw invalid(name, seconds, "may not specify a duration less than 10 minutes");
        }
        if (seconds > MAX_SECONDS) {
            throw invalid(name, seconds, "may not specify a duration larger than 2^32 seconds");
        }
        List<String> audiences = PolicyRule.strings(spec.path("audiences"));
        if (audiences.isEmpty()) {
            audiences = tokens.audiences();
        }
        ServiceAccountTokens.Issued issued = tokens.issue(namespace, name, uid, audiences, seconds);
        ObjectNode out = KubeJson.mapper().createObjectNode();
        out.put("kind", "TokenRequest").put("apiVersion", "authentication.k8s.io/v1");
        out.putObject("metadata").put("name", name).put("namespace", namespace).putNull("creationTimestamp");
        ObjectNode outSpec = out.putObject("spec");
        ArrayNode aud = outSpec.putArray("audiences");
        audiences.forEach(aud::add);
        outSpec.put("expirationSeconds", seconds);
        outSpec.set("boundObjectRef", spec.path("boundObjectRef").isObject() ? spec.get("boundObjectRef") : null);
        if (outSpec.get("boundObjectRef") == null) {
            outSpec.putNull("boundObjectRef");
        }
        out.putObject("status")
                .put("token", issued.token())
                .put(
                        "expirationTimestamp",
                        issued.expiration().truncatedTo(ChronoUnit.SECONDS).toString());
        return out;
    }

    private static InvalidException invalid(String name, long seconds, String detail) {
        return ApiErrors.invalid(
                "TokenRequest.authentication.k8s.io",
                "authentication.k8s.io",
                "TokenRequest",
                name,
                List.of(ApiErrors.FieldError.invalid("spec.expirationSeconds", seconds, detail)));
    }
}
