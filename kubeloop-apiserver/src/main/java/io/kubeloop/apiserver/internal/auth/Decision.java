package io.kubeloop.apiserver.internal.auth;

/**
 * An authorization decision and its reason (kube-apiserver's: {@code RBAC: allowed by …} when allowed,
 * the RBAC errors met, if any, when not).
 *
 * @param allowed whether the request may proceed
 * @param reason why, possibly {@code ""}
 */
public record Decision(boolean allowed, String reason) {

    /** Allowed, with {@code reason}. */
    public static Decision allow(String reason) {
        return new Decision(true, reason);
    }

    /** Not allowed, with {@code reason}. */
    public static Decision deny(String reason) {
        return new Decision(false, reason);
    }
}
