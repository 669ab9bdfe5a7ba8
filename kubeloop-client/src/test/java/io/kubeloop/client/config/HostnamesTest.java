package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostnamesTest {

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource({
        "example.com, example.com, true",
        "Example.COM, example.com., true",
        "*.example.com, api.example.com, true",
        "*.example.com, a.b.example.com, false",
        "*.example.com, example.com, false",
        "api.*.com, api.example.com, false",
        "*.com, example.com, false",
        "example.com, other.com, false"
    })
    void dnsPatternsMatchLikeGo(String pattern, String host, boolean matches) {
        assertThat(Hostnames.dnsMatches(pattern, host)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1, true",
        "::1, true",
        "fd00::1, true",
        "localhost, false",
        "1.2.3, false",
        "10.0.0.1.example, false"
    })
    void ipLiteralsAreRecognisedWithoutResolvingNames(String text, boolean isIp) {
        assertThat(Hostnames.ipLiteral(text) != null).isEqualTo(isIp);
    }
}
