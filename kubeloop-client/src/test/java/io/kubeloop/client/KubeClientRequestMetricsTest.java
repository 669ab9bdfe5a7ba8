package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.http.RequestMetrics;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.client.internal.http.TestApiServer;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KubeClient#withRequestMetrics}: client-go's request metrics — each attempt's status (client-go's
 * {@code RequestResult}), each call's latency with throttling and retries ({@code RequestLatency}), each
 * attempt's rate-limiter wait ({@code RateLimiterLatency}) and each retry with the status that caused it
 * ({@code RequestRetry}) — labelled with the HTTP method and the server's host:port.
 */
class KubeClientRequestMetricsTest {

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"default\"}}";
    private static final String PATH = "/api/v1/namespaces/default/configmaps/web";

    private final TestApiServer server = new TestApiServer();
    private final FakeTicker ticker = FakeTicker.autoAdvancing();
    private final Recording metrics = new Recording();
    private final KubeClient client = KubeClient.create(
            server.config(),
            ClientOptions.builder().ticker(ticker).qps(0.1).burst(1).build());
    private final String host = server.uri().getHost() + ":" + server.uri().getPort();

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    /** Every call of the metrics, as one line each. */
    private static final class Recording implements RequestMetrics {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void requestLatency(String verb, String host, Duration latency) {
            calls.add("latency " + verb + " " + host);
        }

        @Override
        public void requestResult(String code, String method, String host) {
            calls.add("result " + code + " " + method + " " + host);
        }

        @Override
        public void rateLimiterLatency(String verb, String host, Duration wait) {
            calls.add("wait " + verb + " " + host + " " + (wait.isZero() ? "0" : ">0"));
        }

        @Override
        public void requestRetry(String code, String method, String host) {
            calls.add("retry " + code + " " + method + " " + host);
        }
    }

    private static ResourceClient<DynamicObject> configMaps(KubeClient c) {
        return c.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class);
    }

    @Test
    void aRetriedGetReportsEachAttemptItsRetryItsThrottlingAndOneLatency() {
        AtomicInteger calls = new AtomicInteger();
        server.on("GET", PATH, (r, ex) -> {
            if (calls.incrementAndGet() == 1) {
                TestApiServer.respond(ex, 429, "{}", Map.of("Retry-After", "1"));
            } else {
                TestApiServer.respond(ex, 200, CM, Map.of());
            }
        });

        configMaps(client.withRequestMetrics(metrics)).get("web");

        assertThat(metrics.calls)
                .containsExactly(
                        "wait GET " + host + " 0",
                        "result 429 GET " + host,
                        "retry 429 GET " + host,
                        "wait GET " + host + " >0",
                        "result 200 GET " + host,
                        "latency GET " + host);
    }

    @Test
    void aWriteIsReportedWithItsMethodAndAFailedAttemptAsError() {
        server.reply("POST", "/api/v1/namespaces/default/configmaps", 201, CM);
        KubeClient measured = client.withRequestMetrics(metrics);

        configMaps(measured).create(DynamicObject.parse(CM));
        server.close();
        assertThatThrownBy(() -> configMaps(measured).get("web")).isInstanceOf(TransportException.class);

        assertThat(metrics.calls)
                .contains("result 201 POST " + host, "latency POST " + host, "result <error> GET " + host);
    }

    @Test
    void onlyTheMeteredViewAndViewsMadeFromItReport() {
        server.reply("GET", PATH, 200, CM);
        KubeClient measured = client.withRequestMetrics(metrics);

        configMaps(client).get("web");
        assertThat(metrics.calls).as("the client itself").isEmpty();

        configMaps(measured.withInterceptor(chain -> chain.proceed(chain.request())))
                .get("web");
        assertThat(metrics.calls).contains("result 200 GET " + host);
    }

    @Test
    void closingTheMeteredViewLeavesTheClientWorking() {
        server.reply("GET", PATH, 200, CM);
        client.withRequestMetrics(metrics).close();

        assertThat(configMaps(client).get("web").metadata().name()).isEqualTo("web");
    }
}
