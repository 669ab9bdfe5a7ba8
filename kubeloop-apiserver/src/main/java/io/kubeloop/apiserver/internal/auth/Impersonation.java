package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.Status;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Impersonation as kube-apiserver allows it: a request with {@code Impersonate-User} (and optionally
 * {@code Impersonate-Group}, {@code Impersonate-Uid}, {@code Impersonate-Extra-KEY}) runs as that user when
 * the requester may {@code impersonate} each part: {@code users} (or, for
 * {@code system:serviceaccount:NS:NAME}, {@code serviceaccounts} NAME in NS) and {@code groups} in the core
 * group, {@code uids} and {@code userextras/KEY} in {@code authentication.k8s.io}, each by name. The
 * impersonated user is in {@code system:authenticated} (a ServiceAccount also in its ServiceAccount groups
 * when no group is asked for). Groups, uid or extras without a user are a 400.
 *
 * <p>Stateless and thread-safe.
 */
public final class Impersonation {

    /** The impersonation headers of one request, their names lower-cased. */
    public record Headers(String user, List<String> groups, String uid, Map<String, List<String>> extra) {

        public Headers {
            groups = List.copyOf(groups);
            extra = Map.copyOf(extra);
        }

        /** True when the request asks to impersonate anyone. */
        public boolean any() {
            return user != null || !groups.isEmpty() || uid != null || !extra.isEmpty();
        }
    }

    private Impersonation() {}

    /**
     * Reads the impersonation headers.
     *
     * @param headers every header of the request as name (any case) to values
     */
    public static Headers headers(Map<String, List<String>> headers) {
        String user = null;
        String uid = null;
        List<String> groups = new ArrayList<>();
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            switch (name) {
                case "impersonate-user" -> user = e.getValue().getFirst();
                case "impersonate-uid" -> uid = e.getValue().getFirst();
                case "impersonate-group" -> groups.addAll(e.getValue());
                default -> {
                    if (name.startsWith("impersonate-extra-")) {
                        extra.put(
                                URLDecoder.decode(
                                        name.substring("impersonate-extra-".length()), StandardCharsets.UTF_8),
                                List.copyOf(e.getValue()));
                    }
                }
            }
        }
        return new Headers(user, groups, uid, extra);
    }

    /**
     * The user {@code requester} acts as.
     *
     * @throws io.kubeloop.api.errors.ForbiddenException when the requester may not impersonate a part
     * @throws BadRequestException when groups, uid or extras come without a user
     */
    public static UserInfo apply(UserInfo requester, Headers h, RbacAuthorizer authorizer) {
        if (h.user() == null) {
            throw new BadRequestException(Status.failure(
                    400,
                    "BadRequest",
                    "requested impersonation of groups, uid or extra values without impersonating a user"));
        }
        String user = h.user();
        if (user.startsWith(UserInfo.SERVICE_ACCOUNT_PREFIX) && user.split(":").length == 4) {
            String[] p = user.split(":");
            check(requester, "", "serviceaccounts", p[2], p[3], authorizer);
        } else {
            check(requester, "", "users", "", user, authorizer);
        }
        for (String g : h.groups()) {
            check(requester, "", "groups", "", g, authorizer);
        }
        if (h.uid() != null) {
            check(requester, "authentication.k8s.io", "uids", "", h.uid(), authorizer);
        }
        for (Map.Entry<String, List<String>> e : h.extra().entrySet()) {
            for (String v : e.getValue()) {
                check(requester, "authentication.k8s.io", "userextras", e.getKey(), "", v, authorizer);
            }
        }
        List<String> groups = new ArrayList<>(h.groups());
        if (groups.isEmpty() && user.startsWith(UserInfo.SERVICE_ACCOUNT_PREFIX) && user.split(":").length == 4) {
            groups.addAll(UserInfo.serviceAccountGroups(user.split(":")[2]));
        }
        UserInfo as = new UserInfo(user, h.uid(), groups, h.extra());
        return user.equals(UserInfo.ANONYMOUS)
                ? as.withGroup(UserInfo.UNAUTHENTICATED)
                : as.withGroup(UserInfo.AUTHENTICATED);
    }

    private static void check(
            UserInfo requester, String group, String resource, String namespace, String name, RbacAuthorizer authz) {
        check(requester, group, resource, "", namespace, name, authz);
    }

    private static void check(
            UserInfo requester,
            String group,
            String resource,
            String subresource,
            String namespace,
            String name,
            RbacAuthorizer authz) {
        RequestAttributes a =
                RequestAttributes.resource(requester, "impersonate", group, resource, subresource, namespace, name);
        Decision d = authz.authorize(a);
        if (!d.allowed()) {
            throw Forbidden.of(a, d.reason());
        }
    }
}
