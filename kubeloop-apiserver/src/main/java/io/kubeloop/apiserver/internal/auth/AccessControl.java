package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.errors.UnauthorizedException;
import io.kubeloop.api.internal.RequestInfo;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The server's access control, in kube-apiserver's order: authenticate the request, apply impersonation,
 * resolve what it asks, authorize it (RBAC), and, on writes of RBAC objects, prevent escalation; the
 * review resources and the TokenRequest API answer from the same parts; the audit log, when enabled,
 * records each answered request.
 *
 * <p>Immutable and thread-safe.
 */
public final class AccessControl implements AutoCloseable {

    /** A request that passed authentication: who sent it and what it asks (as whom, after impersonation). */
    public record Admitted(UserInfo authenticated, RequestAttributes attributes) {}

    private final Authentication authentication;
    private final RbacAuthorizer authorizer;
    private final RbacEscalation escalation;
    private final AccessReviews reviews;
    private final TokenRequests tokenRequests;
    private final Optional<AuditLog> audit;

    /**
     * @param authentication how requests are authenticated
     * @param policy the RBAC objects
     * @param tokens the ServiceAccount token issuer
     * @param accounts the stored ServiceAccounts
     * @param audit the audit log, if enabled
     */
    public AccessControl(
            Authentication authentication,
            PolicySource policy,
            ServiceAccountTokens tokens,
            ServiceAccountTokens.Accounts accounts,
            Optional<AuditLog> audit) {
        this.authentication = authentication;
        this.authorizer = new RbacAuthorizer(policy);
        this.escalation = new RbacEscalation(authorizer, policy);
        this.reviews = new AccessReviews(authorizer, authentication, tokens.audiences());
        this.tokenRequests = new TokenRequests(tokens, accounts);
        this.audit = audit;
    }

    /**
     * Authenticates a request and resolves what it asks, as the impersonated user when it asks for one.
     *
     * @param authorization the {@code Authorization} header, or null
     * @param clientChain the verified client certificate chain, or null
     * @param headers the request's headers (for impersonation), names in any case
     * @throws io.kubeloop.api.internal.RequestInfo.Unresolvable when the path cannot be resolved (before the
     *     credentials are looked at, as kube-apiserver's request-info filter runs first)
     * @throws UnauthorizedException 401 when the credentials are not valid
     * @throws io.kubeloop.api.errors.ForbiddenException 403 when the impersonation is not allowed
     */
    public Admitted authenticate(
            String method,
            String path,
            Function<String, String> query,
            String authorization,
            X509Certificate[] clientChain,
            Map<String, List<String>> headers) {
        RequestInfo info = RequestInfo.resolve(method, path, query);
        Authentication.Result r = authentication.authenticate(authorization, clientChain);
        if (!(r instanceof Authentication.Result.Authenticated ok)) {
            throw new UnauthorizedException(Status.failure(401, "Unauthorized", "Unauthorized"));
        }
        UserInfo user = ok.user();
        Impersonation.Headers imp = Impersonation.headers(headers);
        UserInfo as = imp.any() ? Impersonation.apply(user, imp, authorizer) : user;
        return new Admitted(user, RequestAttributes.of(as, info));
    }

    /**
     * Authorizes an admitted request.
     *
     * @throws io.kubeloop.api.errors.ForbiddenException 403 with kube-apiserver's message when RBAC refuses it
     */
    public void authorize(RequestAttributes a) {
        Decision d = authorizer.authorize(a);
        if (!d.allowed()) {
            throw Forbidden.of(a, d.reason());
        }
    }

    /**
     * The second authorization of a write that creates its object although its verb is {@code update} or
     * {@code patch} (a server-side apply of a missing object, a PUT of a missing object of a kind that allows
     * create-on-update), as kube-apiserver makes it when its registry is about to create: {@code create} with
     * the request's group, version, resource, subresource, namespace and name, for the same user.
     *
     * @param request the request's attributes (verb {@code update} or {@code patch})
     * @throws io.kubeloop.api.errors.ForbiddenException 403 {@code RESOURCE[.GROUP] "NAME" is forbidden: REASON},
     *     the authorizer's reason ({@code ""} for RBAC without errors), when {@code create} is not allowed
     */
    public void authorizeCreateOnUpdate(RequestAttributes request) {
        RequestAttributes create = request.withVerb("create");
        Decision d = authorizer.authorize(create);
        if (!d.allowed()) {
            throw Forbidden.ofObject(create, d.reason());
        }
    }

    /**
     * The escalation check for {@code user} storing {@code object} of RBAC resource {@code resource}.
     *
     * @param requestName the object's name in the request's URL ({@code ""} for a create by POST): what the
     *     {@code escalate} verb is authorized on
     * @param old the stored object an update changes, or null for a create
     */
    public void checkEscalation(
            UserInfo user, String resource, String namespace, String requestName, JsonNode object, JsonNode old) {
        escalation.check(user, resource, namespace, requestName, object, old);
    }

    /** The authorizer, for the checks admission plugins make (e.g. OwnerReferencesPermissionEnforcement). */
    public RbacAuthorizer authorizer() {
        return authorizer;
    }

    /** The review resources. */
    public AccessReviews reviews() {
        return reviews;
    }

    /** The TokenRequest API. */
    public TokenRequests tokenRequests() {
        return tokenRequests;
    }

    /** Records an answered request in the audit log, when there is one. */
    public void audit(AuditLog.Entry entry) {
        audit.ifPresent(a -> a.record(entry));
    }

    /** True when an audit log is kept. */
    public boolean audits() {
        return audit.isPresent();
    }

    @Override
    public void close() {
        audit.ifPresent(AuditLog::close);
    }
}
