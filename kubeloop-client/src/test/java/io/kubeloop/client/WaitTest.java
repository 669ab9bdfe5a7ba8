package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.testing.FakeTicker;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class WaitTest {

    private static final Duration INTERVAL = Duration.ofMillis(100);

    private final FakeTicker ticker = FakeTicker.autoAdvancing();

    private static ApiException status(int code, String reason) {
        return ApiExceptions.from(Status.failure(code, reason, reason + " from the test"));
    }

    private static TransportException reset() {
        URI uri = URI.create("https://127.0.0.1:6443/apis");
        return new TransportException(
                uri, "GET " + uri + ": connection reset", new SocketException("Connection reset"));
    }

    /** A condition that answers with the scripted outcomes in turn (true once the script is empty). */
    private static Wait.Condition script(AtomicInteger checks, List<Supplier<Boolean>> outcomes) {
        Deque<Supplier<Boolean>> left = new ArrayDeque<>(outcomes);
        return () -> {
            checks.incrementAndGet();
            Supplier<Boolean> next = left.poll();
            return next == null || next.get();
        };
    }

    @Test
    void transientFailuresAreRiddenOutWithGrowingBackOffUntilTheConditionHolds() {
        AtomicInteger checks = new AtomicInteger();
        Wait.until(
                "the test",
                INTERVAL,
                Duration.ofSeconds(30),
                ticker,
                script(
                        checks,
                        List.of(
                                () -> {
                                    throw status(503, "ServiceUnavailable");
                                },
                                () -> {
                                    throw status(429, "TooManyRequests");
                                },
                                () -> {
                                    throw reset();
                                },
                                () -> {
                                    throw new IllegalStateException("wrapped", status(500, "InternalError"));
                                },
                                () -> false,
                                () -> {
                                    throw status(504, "Timeout");
                                })));

        assertThat(checks).hasValue(7);
        List<Duration> sleeps = ticker.sleeps();
        assertThat(sleeps).hasSize(6);
        for (int i = 0; i < 4; i++) { // 100, 200, 400, 800 ms, each up to +10 %
            Duration base = INTERVAL.multipliedBy(1L << i);
            assertThat(sleeps.get(i)).isBetween(base, base.plus(base.dividedBy(10)));
        }
        assertThat(sleeps.get(4)).as("a plain 'not yet' waits the interval").isEqualTo(INTERVAL);
        assertThat(sleeps.get(5)).as("the back-off starts again").isBetween(INTERVAL, INTERVAL.plusMillis(10));
    }

    @Test
    void theBackOffIsCappedAndNeverRunsPastTheDeadlineWhereTheWaitFailsNamingTheLastError() {
        AtomicInteger checks = new AtomicInteger();
        assertThatThrownBy(() -> Wait.until(
                        "CRD foos.example.com to be established", INTERVAL, Duration.ofSeconds(20), ticker, () -> {
                            checks.incrementAndGet();
                            throw status(503, "ServiceUnavailable");
                        }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("timed out after 20s waiting for CRD foos.example.com to be established; last error: "
                        + "ServiceUnavailable: ServiceUnavailable from the test")
                .cause()
                .isInstanceOf(ApiException.class);

        assertThat(ticker.sleeps())
                .allMatch(d -> d.compareTo(Wait.MAX_BACKOFF.plus(Wait.MAX_BACKOFF.dividedBy(10))) <= 0);
        assertThat(ticker.sleeps().stream().reduce(Duration.ZERO, Duration::plus))
                .isEqualTo(Duration.ofSeconds(20));
        assertThat(checks.get())
                .as("a last check at the deadline")
                .isEqualTo(ticker.sleeps().size() + 1);
    }

    @Test
    void aRetryAfterLongerThanTheBackOffIsHonoured() {
        ApiException busy = ApiExceptions.from(
                429,
                "application/json",
                "{\"kind\":\"Status\",\"code\":429,\"reason\":\"TooManyRequests\",\"message\":\"slow down\"}"
                        .getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(3));
        AtomicInteger checks = new AtomicInteger();
        Wait.until("the test", INTERVAL, Duration.ofSeconds(30), ticker, script(checks, List.of(() -> {
            throw busy;
        })));
        assertThat(ticker.sleeps()).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void otherFailuresEndTheWaitAtOnceUnchanged() {
        for (ApiException e : List.of(
                status(403, "Forbidden"),
                status(404, "NotFound"),
                status(422, "Invalid"),
                status(401, "Unauthorized"),
                status(409, "Conflict"))) {
            assertThatThrownBy(() -> Wait.until("the test", INTERVAL, Duration.ofSeconds(30), ticker, () -> {
                        throw e;
                    }))
                    .isSameAs(e);
        }
        IllegalArgumentException bug = new IllegalArgumentException("a bug in the condition");
        assertThatThrownBy(() -> Wait.until("the test", INTERVAL, Duration.ofSeconds(30), ticker, () -> {
                    throw bug;
                }))
                .isSameAs(bug);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void pollAnswersFalseAtTheDeadlineAndTrueAsSoonAsTheConditionHolds() {
        assertThat(Wait.poll("never", INTERVAL, Duration.ofSeconds(1), ticker, () -> false))
                .isFalse();
        assertThat(ticker.sleeps()).hasSize(10);
        assertThat(Wait.poll("at once", INTERVAL, Duration.ofSeconds(1), ticker, () -> true))
                .isTrue();
        assertThat(ticker.sleeps()).hasSize(10);
    }

    @Test
    void anInterruptedCallIsNotTransient() {
        URI uri = URI.create("https://127.0.0.1:6443/apis");
        assertThat(Wait.isTransient(new TransportException(uri, "interrupted", new InterruptedException())))
                .isFalse();
        assertThat(Wait.isTransient(reset())).isTrue();
        Thread.currentThread().interrupt();
        try {
            assertThat(Wait.isTransient(reset())).isFalse();
        } finally {
            Thread.interrupted();
        }
    }
}
