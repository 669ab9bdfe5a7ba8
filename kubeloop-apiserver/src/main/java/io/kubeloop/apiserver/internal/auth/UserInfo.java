package io.kubeloop.apiserver.internal.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An authenticated (or anonymous) identity: the user name, uid, groups and extra values a request runs as.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the user name, e.g. {@code system:serviceaccount:ns:sa}
 * @param uid the user's uid, {@code ""} when unknown
 * @param groups the groups, in the order the authenticator gave them
 * @param extra extra values by key (impersonated or from the token)
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    /** The group every authenticated user is in. */
    public static final String AUTHENTICATED = "system:authenticated";
    /** The group of anonymous requests. */
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    /** The group that may do everything, whatever RBAC says. */
    public static final String MASTERS = "system:masters";
    /** The user name of requests without credentials. */
    public static final String ANONYMOUS = "system:anonymous";
    /** The prefix of ServiceAccount user names. */
    public static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    public UserInfo {
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    /** A user with groups and no uid or extra values. */
    public static UserInfo of(String name, List<String> groups) {
        return new UserInfo(name, "", groups, Map.of());
    }

    /** The identity of a request without credentials. */
    public static UserInfo anonymous() {
        return of(ANONYMOUS, List.of(UNAUTHENTICATED));
    }

    /** The user name of ServiceAccount {@code namespace/name}. */
    public static String serviceAccountName(String namespace, String name) {
        return SERVICE_ACCOUNT_PREFIX + namespace + ":" + name;
    }

    /** The groups every token of ServiceAccounts in {@code namespace} carries. */
    public static List<String> serviceAccountGroups(String namespace) {
        return List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace);
    }

    /** True when this user is in {@code group}. */
    public boolean inGroup(String group) {
        return groups.contains(group);
    }

    /** This user with {@code group} added at the end, unless already in it. */
    public UserInfo withGroup(String group) {
        if (groups.contains(group)) {
            return this;
        }
        List<String> g = new ArrayList<>(groups);
        g.add(group);
        return new UserInfo(name, uid, g, extra);
    }
}
