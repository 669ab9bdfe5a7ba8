package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ServiceAccount tokens as kube-apiserver issues them through the TokenRequest API: signed JWTs
 * ({@code ES256}, the server's EC key) with the issuer, audiences, expiry and the ServiceAccount's
 * namespace, name and uid; and their validation: the signature, the issuer (a token of another issuer is
 * not this authenticator's), an audience the server accepts, not expired and not before its
 * {@code nbf}, and a ServiceAccount of that namespace, name and uid still stored.
 *
 * <p>Immutable and thread-safe; times come from the server's {@link Ticker}.
 */
public final class ServiceAccountTokens implements TokenAuthenticator {

    /** The issuer and default audience of the server's tokens, as on a cluster with default flags. */
    public static final String ISSUER = "https://kubernetes.default.svc.cluster.local";

    /**
     * The extra value naming the token a request came with ({@code JTI=<token id>}), as kube-apiserver 1.30+
     * records it, so the audit log tells apart two processes using the same ServiceAccount.
     */
    public static final String CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    private static final String ALGORITHM = "SHA256withECDSAinP1363Format";

    /** Looks up the uid of a stored ServiceAccount. */
    @FunctionalInterface
    public interface Accounts {
        /** The uid of ServiceAccount {@code namespace/name}; empty when there is none. */
        Optional<String> uid(String namespace, String name);
    }

    /** An issued token and when it expires. */
    public record Issued(String token, Instant expiration) {}

    private final PrivateKey signer;
    private final PublicKey verifier;
    private final String keyId;
    private final List<String> audiences;
    private final Accounts accounts;
    private final Ticker clock;

    /**
     * @param signer the key tokens are signed with (EC P-256)
     * @param verifier its public key
     * @param audiences the audiences the server accepts; the first is the default of a TokenRequest
     * @param accounts the stored ServiceAccounts
     * @param clock the server's clock
     */
    public ServiceAccountTokens(
            PrivateKey signer, PublicKey verifier, List<String> audiences, Accounts accounts, Ticker clock) {
        this.signer = signer;
        this.verifier = verifier;
        this.keyId = keyId(verifier);
        this.audiences = List.copyOf(audiences);
        this.accounts = accounts;
        this.clock = clock;
    }

    /** The audiences the server accepts; a TokenRequest without audiences gets these. */
    public List<String> audiences() {
        return audiences;
    }

    /** A token of ServiceAccount {@code namespace/name} (uid {@code uid}) for {@code audiences}, valid {@code seconds}. */
    public Issued issue(String namespace, String name, String uid, List<String> audiences, long seconds) {
        Instant now = clock.instant();
        Instant exp = now.plusSeconds(seconds);
        ObjectNode header =
                KubeJson.mapper().createObjectNode().put("alg", "ES256").put("kid", keyId);
        ObjectNode claims = KubeJson.mapper().createObjectNode();
        var aud = claims.putArray("aud");
        audiences.forEach(aud::add);
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", now.getEpochSecond());
        claims.put("iss", ISSUER);
        claims.put("jti", UUID.randomUUID().toString());
        ObjectNode k8s = claims.putObject("kubernetes.io");
        k8s.put("namespace", namespace);
        k8s.putObject("serviceaccount").put("name", name).put("uid", uid);
        claims.put("nbf", now.getEpochSecond());
        claims.put("sub", UserInfo.serviceAccountName(namespace, name));
        String signingInput = B64.encodeToString(KubeJson.mapper().writeValueAsBytes(header)) + "."
                + B64.encodeToString(KubeJson.mapper().writeValueAsBytes(claims));
        try {
            Signature s = Signature.getInstance(ALGORITHM);
            s.initSign(signer);
            s.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return new Issued(signingInput + "." + B64.encodeToString(s.sign()), exp);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a ServiceAccount token: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<UserInfo> authenticate(String token) {
        return claims(token).flatMap(this::user);
    }

    /** The claims of a token this server signed, whatever their content; empty for anything else. */
    private Optional<JsonNode> claims(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            JsonNode header = KubeJson.mapper().readTree(B64D.decode(parts[0]));
            if (!"ES256".equals(header.path("alg").asString(""))) {
                return Optional.empty();
            }
            Signature s = Signature.getInstance(ALGORITHM);
            s.initVerify(verifier);
            s.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!s.verify(B64D.decode(parts[2]))) {
                return Optional.empty();
            }
            return Optional.of(KubeJson.mapper().readTree(B64D.decode(parts[1])));
        } catch (IllegalArgumentException | JacksonException | GeneralSecurityException e) {
            return Optional.empty();
        }
    }

    private Optional<UserInfo> user(JsonNode claims) {
        long now = clock.instant().getEpochSecond();
        if (!ISSUER.equals(claims.path("iss").asString(""))
                || claims.path("exp").asLong(0) <= now
                || claims.path("nbf").asLong(0) > now + 60) {
            return Optional.empty();
        }
        List<String> aud = new ArrayList<>();
        claims.path("aud").forEach(a -> aud.add(a.asString("")));
        if (aud.stream().noneMatch(audiences::contains)) {
            return Optional.empty();
        }
        JsonNode k8s = claims.path("kubernetes.io");
        String namespace = k8s.path("namespace").asString("");
        String name = k8s.path("serviceaccount").path("name").asString("");
        String uid = k8s.path("serviceaccount").path("uid").asString("");
        if (namespace.isEmpty()
                || name.isEmpty()
                || !accounts.uid(namespace, name).map(uid::equals).orElse(false)) {
            return Optional.empty();
        }
        String jti = claims.path("jti").asString("");
        return Optional.of(new UserInfo(
                UserInfo.serviceAccountName(namespace, name),
                uid,
                UserInfo.serviceAccountGroups(namespace),
                jti.isEmpty() ? Map.of() : Map.of(CREDENTIAL_ID, List.of("JTI=" + jti))));
    }

    /** kube-apiserver's key id: the unpadded base64url SHA-256 of the public key's DER encoding. */
    private static String keyId(PublicKey key) {
        try {
            return B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
