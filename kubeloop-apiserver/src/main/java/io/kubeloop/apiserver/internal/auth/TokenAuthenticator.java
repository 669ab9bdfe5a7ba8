package io.kubeloop.apiserver.internal.auth;

import java.util.Optional;

/**
 * Recognizes bearer tokens of one kind. Implementations are thread-safe.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    /**
     * The user {@code token} belongs to; empty when this authenticator does not recognize it (another may),
     * or when it recognizes the token as its own but the token is no longer valid (expired, its
     * ServiceAccount deleted).
     */
    Optional<UserInfo> authenticate(String token);
}
