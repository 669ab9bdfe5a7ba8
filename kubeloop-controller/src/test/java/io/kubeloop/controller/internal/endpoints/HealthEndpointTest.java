package io.kubeloop.controller.internal.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.controller.endpoints.HealthCheck;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthEndpointTest {

    private final HealthEndpoint endpoint = new HealthEndpoint("readyz");

    private static HealthCheck failing(String reason) {
        return () -> {
            throw new IllegalStateException(reason);
        };
    }

    @Test
    void allPassingAnswersOkAndVerboseListsEachCheckSorted() {
        endpoint.add("informers", HealthCheck.ping());
        endpoint.add("another", HealthCheck.ping());

        assertThat(endpoint.answer("", Map.of())).isEqualTo(new HealthEndpoint.Answer(200, "ok"));
        assertThat(endpoint.answer("/", Map.of("verbose", List.of(""))))
                .isEqualTo(new HealthEndpoint.Answer(200, "[+]another ok\n[+]informers ok\nhealthz check passed\n"));
    }

    @Test
    void oneFailingAnswers500VerboselyWithTheReasonWithheld() {
        endpoint.add("ping", HealthCheck.ping());
        endpoint.add("informers", failing("informers not synced: [pods]"));

        assertThat(endpoint.answer("", Map.of()))
                .isEqualTo(new HealthEndpoint.Answer(
                        500, "[-]informers failed: reason withheld\n[+]ping ok\nhealthz check failed\n"));
    }

    @Test
    void excludedChecksAreSkippedAndUnknownExcludesWarned() {
        endpoint.add("informers", failing("not yet"));
        endpoint.add("ping", HealthCheck.ping());

        assertThat(endpoint.answer("", Map.of("exclude", List.of("informers", "nope"))))
                .as("an exclude is not verbose by itself; the warning shows with verbose")
                .isEqualTo(new HealthEndpoint.Answer(200, "ok"));
        assertThat(endpoint.answer("", Map.of("exclude", List.of("informers", "nope"), "verbose", List.of(""))))
                .isEqualTo(
                        new HealthEndpoint.Answer(
                                200,
                                "[+]informers excluded: ok\n[+]ping ok\n"
                                        + "warn: some health checks cannot be excluded: no matches for \"nope\"\nhealthz check passed\n"));
    }

    @Test
    void aSingleCheckAnswersWithItsReasonAndAnUnknownOneIs404() {
        endpoint.add("informers", failing("informers not synced: [pods]"));
        endpoint.add("ping", HealthCheck.ping());

        assertThat(endpoint.answer("/informers", Map.of()))
                .isEqualTo(new HealthEndpoint.Answer(500, "internal server error: informers not synced: [pods]\n"));
        assertThat(endpoint.answer("/ping/", Map.of())).isEqualTo(new HealthEndpoint.Answer(200, "ok"));
        assertThat(endpoint.answer("/other", Map.of()).status()).isEqualTo(404);
    }

    @Test
    void withoutChecksThereIsAnImplicitPing() {
        assertThat(endpoint.answer("", Map.of("verbose", List.of(""))))
                .isEqualTo(new HealthEndpoint.Answer(200, "[+]ping ok\nhealthz check passed\n"));
        assertThat(endpoint.answer("/ping", Map.of())).isEqualTo(new HealthEndpoint.Answer(200, "ok"));
    }

    @Test
    void namesMustBeUniqueNonEmptyAndWithoutSlash() {
        endpoint.add("ping", HealthCheck.ping());
        assertThatThrownBy(() -> endpoint.add("ping", HealthCheck.ping()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already added");
        assertThatThrownBy(() -> endpoint.add("a/b", HealthCheck.ping()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without '/'");
        assertThatThrownBy(() -> endpoint.add("", HealthCheck.ping())).isInstanceOf(IllegalArgumentException.class);
    }
}
