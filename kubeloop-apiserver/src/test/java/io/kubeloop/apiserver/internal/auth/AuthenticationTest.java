package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who a request is, from its client certificate, its bearer token, or nothing at all. */
class AuthenticationTest {

    private final Authentication authn =
            new Authentication(List.of(new StaticTokens(Map.of("t", UserInfo.of("alice", List.of("devs"))))), true);

    @Test
    void aKnownBearerTokenIsItsUserInSystemAuthenticated() {
        assertThat(authn.authenticate("Bearer t", null))
                .isEqualTo(new Authentication.Result.Authenticated(
                        UserInfo.of("alice", List.of("devs", UserInfo.AUTHENTICATED))));
    }

    @Test
    void anUnknownTokenOrAnotherSchemeIsRefusedNeverAnonymous() {
        assertThat(authn.authenticate("Bearer nope", null)).isInstanceOf(Authentication.Result.Refused.class);
        assertThat(authn.authenticate("Basic YTpi", null)).isInstanceOf(Authentication.Result.Refused.class);
    }

    @Test
    void noCredentialsAreTheAnonymousUserOrRefusedWhenAnonymousIsOff() {
        assertThat(authn.authenticate(null, null))
                .isEqualTo(new Authentication.Result.Authenticated(UserInfo.anonymous()));
        assertThat(new Authentication(List.of(), false).authenticate(null, null))
                .isInstanceOf(Authentication.Result.Refused.class);
    }

    @Test
    void aClientCertificateIsItsCommonNameInItsOrganizations() throws Exception {
        TlsMaterial.ClientCertificate cert =
                TlsMaterial.generate().issueClient("carol", List.of("ops", "oncall"), Duration.ofDays(1));
        X509Certificate x509 = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(
                        new ByteArrayInputStream(cert.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        assertThat(authn.authenticate(null, new X509Certificate[] {x509}))
                .isEqualTo(new Authentication.Result.Authenticated(
                        UserInfo.of("carol", List.of("ops", "oncall", UserInfo.AUTHENTICATED))));
    }
}
