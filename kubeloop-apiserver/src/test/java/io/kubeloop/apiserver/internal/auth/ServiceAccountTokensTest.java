package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.time.Ticker;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** ServiceAccount tokens are signed JWTs that stop authenticating when expired, forged, for another audience or orphaned. */
class ServiceAccountTokensTest {

    /** A clock the test moves by hand. */
    private static final class StepClock implements Ticker {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void step(Duration d) {
            now = now.plus(d);
        }

        @Override
        public long nanoTime() {
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public void parkUntil(long deadlineNanos) {
            throw new UnsupportedOperationException("nothing here waits");
        }
    }

    private final StepClock clock = new StepClock();
    private final Map<String, String> uids = new HashMap<>(Map.of("team/robot", "uid-1"));
    private final ServiceAccountTokens tokens = tokens(keys());

    private static KeyPair keys() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private ServiceAccountTokens tokens(KeyPair keys) {
        return new ServiceAccountTokens(
                keys.getPrivate(),
                keys.getPublic(),
                List.of(ServiceAccountTokens.ISSUER),
                (ns, name) -> Optional.ofNullable(uids.get(ns + "/" + name)),
                clock);
    }

    @Test
    void anIssuedTokenAuthenticatesItsServiceAccountWithTheServiceAccountGroupsAndTheTokensId() {
        String token =
                tokens.issue("team", "robot", "uid-1", tokens.audiences(), 3600).token();
        String jti = KubeJson.mapper()
                .readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]))
                .path("jti")
                .asString();
        assertThat(tokens.authenticate(token))
                .contains(new UserInfo(
                        "system:serviceaccount:team:robot",
                        "uid-1",
                        List.of("system:serviceaccounts", "system:serviceaccounts:team"),
                        Map.of(ServiceAccountTokens.CREDENTIAL_ID, List.of("JTI=" + jti))));
    }

    @Test
    void theClaimsAreKubeApiserversIssuerSubjectAudienceExpiryAndServiceAccount() {
        ServiceAccountTokens.Issued issued = tokens.issue("team", "robot", "uid-1", List.of("vault"), 600);
        String[] parts = issued.token().split("\\.");
        JsonNode header = KubeJson.mapper().readTree(Base64.getUrlDecoder().decode(parts[0]));
        JsonNode claims = KubeJson.mapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertThat(header.path("alg").asString()).isEqualTo("ES256");
        assertThat(header.path("kid").asString()).isNotEmpty();
        assertThat(claims.path("iss").asString()).isEqualTo(ServiceAccountTokens.ISSUER);
        assertThat(claims.path("sub").asString()).isEqualTo("system:serviceaccount:team:robot");
        assertThat(claims.path("aud").get(0).asString()).isEqualTo("vault");
        assertThat(claims.path("exp").asLong() - claims.path("iat").asLong()).isEqualTo(600);
        assertThat(claims.path("kubernetes.io")
                        .path("serviceaccount")
                        .path("uid")
                        .asString())
                .isEqualTo("uid-1");
        assertThat(issued.expiration()).isEqualTo(clock.instant().plusSeconds(600));
    }

    @Test
    void anExpiredTokenNoLongerAuthenticates() {
        String token =
                tokens.issue("team", "robot", "uid-1", tokens.audiences(), 600).token();
        clock.step(Duration.ofSeconds(599));
        assertThat(tokens.authenticate(token)).isPresent();
        clock.step(Duration.ofSeconds(1));
        assertThat(tokens.authenticate(token)).isEmpty();
    }

    @Test
    void aTokenForAnotherAudienceDoesNotAuthenticateToTheServer() {
        String token =
                tokens.issue("team", "robot", "uid-1", List.of("vault"), 600).token();
        assertThat(tokens.authenticate(token)).isEmpty();
    }

    @Test
    void aTokenOfADeletedOrRecreatedServiceAccountDoesNotAuthenticate() {
        String token =
                tokens.issue("team", "robot", "uid-1", tokens.audiences(), 600).token();
        uids.put("team/robot", "uid-2");
        assertThat(tokens.authenticate(token)).isEmpty();
        uids.remove("team/robot");
        assertThat(tokens.authenticate(token)).isEmpty();
    }

    @Test
    void aForgedOrForeignTokenDoesNotAuthenticate() {
        String token =
                tokens.issue("team", "robot", "uid-1", tokens.audiences(), 600).token();
        String[] parts = token.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]))
                .replace("system:serviceaccount:team:robot", "system:serviceaccount:team:admin");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(claims.getBytes()) + "."
                + parts[2];
        assertThat(tokens.authenticate(forged)).isEmpty();
        String foreign = tokens(keys())
                .issue("team", "robot", "uid-1", tokens.audiences(), 600)
                .token();
        assertThat(tokens.authenticate(foreign)).isEmpty();
        assertThat(tokens.authenticate("not-a-jwt")).isEmpty();
        assertThat(tokens.authenticate("a.b.c")).isEmpty();
    }
}
