package io.kubeloop.apiserver.internal.auth;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Authenticates a request as kube-apiserver does: a client certificate the TLS layer verified against the
 * server's CA (CN is the user, each O a group), else a bearer token recognized by one of the token
 * authenticators in order, else, with no credentials at all, the anonymous user ({@code system:anonymous}
 * in {@code system:unauthenticated}). A bearer token nobody recognizes is refused (401), never anonymous.
 * Authenticated users are in {@code system:authenticated}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Authentication {

    /** The outcome: a user, or refused (401 Unauthorized). */
    public sealed interface Result {
        /** The request runs as {@code user}. */
        record Authenticated(UserInfo user) implements Result {}

        /** The credentials were given but are not valid. */
        record Refused() implements Result {}
    }

    private final List<TokenAuthenticator> tokens;
    private final boolean anonymous;

    /**
     * @param tokens the token authenticators, asked in order
     * @param anonymous whether requests without credentials run as the anonymous user (else they are refused)
     */
    public Authentication(List<TokenAuthenticator> tokens, boolean anonymous) {
        this.tokens = List.copyOf(tokens);
        this.anonymous = anonymous;
    }

    /**
     * Authenticates a request.
     *
     * @param authorization the {@code Authorization} header, or null
     * @param clientChain the client certificate chain the TLS layer verified, or null
     */
    public Result authenticate(String authorization, X509Certificate[] clientChain) {
        if (clientChain != null && clientChain.length > 0) {
            Optional<UserInfo> fromCert = fromCertificate(clientChain[0]);
            if (fromCert.isPresent()) {
                return new Result.Authenticated(fromCert.get().withGroup(UserInfo.AUTHENTICATED));
            }
        }
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String token = authorization.substring(7).strip();
            if (!token.isEmpty()) {
                Optional<UserInfo> user = authenticateToken(token);
                return user.<Result>map(u -> new Result.Authenticated(u)).orElseGet(Result.Refused::new);
            }
        }
        if (authorization != null && !authorization.isBlank()) {
            return new Result.Refused();
        }
        return anonymous ? new Result.Authenticated(UserInfo.anonymous()) : new Result.Refused();
    }

    /** The user of a bearer token (in {@code system:authenticated}); empty when no authenticator accepts it. */
    public Optional<UserInfo> authenticateToken(String token) {
        for (TokenAuthenticator t : tokens) {
            Optional<UserInfo> user = t.authenticate(token);
            if (user.isPresent()) {
                return Optional.of(user.get().withGroup(UserInfo.AUTHENTICATED));
            }
        }
        return Optional.empty();
    }

    /** CN as the user, each O as a group; empty when the subject has no CN. */
    static Optional<UserInfo> fromCertificate(X509Certificate cert) {
        try {
            LdapName dn = new LdapName(cert.getSubjectX500Principal().getName());
            String cn = null;
            List<String> orgs = new ArrayList<>();
            for (Rdn rdn : dn.getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    cn = rdn.getValue().toString();
                } else if (rdn.getType().equalsIgnoreCase("O")) {
                    orgs.add(rdn.getValue().toString()); // getRdns() is in ASN.1 order
                }
            }
            return cn == null || cn.isEmpty() ? Optional.empty() : Optional.of(UserInfo.of(cn, orgs));
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
    }
}
