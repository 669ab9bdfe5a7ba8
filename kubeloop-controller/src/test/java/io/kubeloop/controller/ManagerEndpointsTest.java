package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.time.Ticker;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A manager's metrics and health probe servers over real HTTP. No controller here watches anything,
 * so the client never reaches its (absent) API server.
 */
@Timeout(30)
class ManagerEndpointsTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final KubeClient client = UnreachableClient.create();
    private final HttpClient http = HttpClient.newHttpClient();
    private Manager manager;

    @AfterEach
    void close() {
        if (manager != null) {
            manager.close();
        }
        client.close();
        http.close();
    }

    private HttpResponse<String> get(InetSocketAddress address, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsServesTheControllersAndWorkQueuesMetricsAsPrometheusText() throws Exception {
        manager = Manager.create(client, ManagerOptions.defaults().withMetricsAddress(ANY_LOOPBACK_PORT));
        Controller controller = Controller.create(
                (r, ctx) -> Result.done(),
                ControllerOptions.builder("configmap")
                        .ticker(Ticker.system())
                        .meterRegistry(manager.meterRegistry())
                        .build());
        manager.add(controller);
        manager.start();
        controller.queue().add(Request.of("default", "one"));

        InetSocketAddress address = manager.endpoints().metricsAddress().orElseThrow();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> get(address, "/metrics")
                        .body()
                        .contains(
                                "controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 1.0"));
        HttpResponse<String> metrics = get(address, "/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.body())
                .contains("workqueue_adds_total{name=\"configmap\"} 1.0")
                .contains("jvm_memory_used_bytes")
                .contains("process_uptime_seconds");
        assertThat(get(address, "/other").statusCode()).isEqualTo(404);
        assertThat(http.send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/metrics"))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(405);
    }

    @Test
    void controllersBuiltForTheManagerReportToItsRegistryAndAreAddedToIt() throws Exception {
        manager = Manager.create(client, ManagerOptions.defaults());
        Controller controller = ControllerBuilder.forResource(ControllerBuilderTest.Foo.class)
                .build(manager, (r, ctx) -> Result.done());

        assertThat(manager.meterRegistry()
                        .find("controller_runtime.active_workers")
                        .tag("controller", "foo")
                        .gauge())
                .as("the controller's metrics are in the manager's registry")
                .isNotNull();
        assertThatThrownBy(() -> manager.add(controller))
                .as("already added: adding twice would start it twice")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void healthAndReadinessProbesAnswerTheAddedChecks() throws Exception {
        manager = Manager.create(client, ManagerOptions.defaults().withHealthProbeAddress(ANY_LOOPBACK_PORT));
        AtomicBoolean warm = new AtomicBoolean();
        manager.endpoints().addHealthzCheck("ping", HealthCheck.ping());
        manager.endpoints().addReadyzCheck("informers", manager.endpoints().informersSynced());
        manager.endpoints().addReadyzCheck("warm", () -> {
            if (!warm.get()) {
                throw new IllegalStateException("still warming up");
            }
        });
        manager.start();
        InetSocketAddress address = manager.endpoints().healthProbeAddress().orElseThrow();

        assertThat(get(address, "/healthz").body()).isEqualTo("ok");
        HttpResponse<String> notReady = get(address, "/readyz");
        assertThat(notReady.statusCode()).isEqualTo(500);
        assertThat(notReady.body())
                .isEqualTo("[+]informers ok\n[-]warm failed: reason withheld\nhealthz check failed\n");
        assertThat(get(address, "/readyz/warm").body()).isEqualTo("internal server error: still warming up\n");

        warm.set(true);
        HttpResponse<String> ready = get(address, "/readyz?verbose");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("[+]informers ok\n[+]warm ok\nhealthz check passed\n");
    }

    @Test
    void informersSyncedFailsBeforeTheManagerStarts() {
        manager = Manager.create(client, ManagerOptions.defaults());
        assertThatThrownBy(() -> manager.endpoints().informersSynced().check())
                .hasMessage("the manager has not started");
    }

    @Test
    void anAddressInUseFailsStartWithTheAddressInTheMessage() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            manager = Manager.create(client, ManagerOptions.defaults().withMetricsAddress(address));
            assertThatThrownBy(manager::start)
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot serve metrics on " + address);
            assertThat(manager.awaitTermination(Duration.ofSeconds(5)))
                    .as("stopped again")
                    .isTrue();
        }
    }
}
