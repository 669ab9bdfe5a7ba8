package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.internal.http.TestApiServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link KubeClient#withInterceptor}: a view of a client whose requests pass one more interceptor. */
class KubeClientInterceptorTest {

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"default\"}}";

    private final TestApiServer server = new TestApiServer();
    /** What each interceptor saw, in order: "view GET /path" or "app GET /path". */
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private final KubeClient client = KubeClient.create(
            server.config(),
            ClientOptions.builder().interceptors(List.of(recording("app"))).build());

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private Interceptor recording(String who) {
        return chain -> {
            seen.add(who + " " + chain.request().method() + " "
                    + chain.request().uri().getRawPath());
            return chain.proceed(chain.request());
        };
    }

    private static ResourceClient<DynamicObject> configMaps(KubeClient c) {
        return c.resource(CONFIGMAPS, ResourceScope.NAMESPACED, DynamicObject.class);
    }

    @Test
    void aRequestThroughTheViewPassesItsInterceptorOnceBeforeTheClientsOwnPipeline() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        KubeClient view = client.withInterceptor(recording("view"));

        assertThat(configMaps(view).get("web").metadata().name()).isEqualTo("web");

        assertThat(seen)
                .containsExactly(
                        "view GET /api/v1/namespaces/default/configmaps/web",
                        "app GET /api/v1/namespaces/default/configmaps/web");
    }

    @Test
    void theViewCanChangeTheRequestTheServerReceives() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        KubeClient view =
                client.withInterceptor(chain -> chain.proceed(chain.request().withHeader("X-Trace", "1")));

        configMaps(view).get("web");

        assertThat(server.lastRequest().header("X-Trace")).isEqualTo("1");
    }

    @Test
    void requestsOfTheOriginalClientDoNotPassTheViewsInterceptor() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        client.withInterceptor(recording("view"));

        configMaps(client).get("web");

        assertThat(seen).containsExactly("app GET /api/v1/namespaces/default/configmaps/web");
    }

    @Test
    void viewsOfViewsRunTheLastAddedFirst() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        KubeClient view = client.withInterceptor(recording("inner")).withInterceptor(recording("outer"));

        configMaps(view).get("web");

        assertThat(seen).extracting(s -> s.substring(0, s.indexOf(' '))).containsExactly("outer", "inner", "app");
    }

    @Test
    void discoveryThroughTheViewPassesTheInterceptor() {
        server.reply("GET", "/version", 200, "{\"major\":\"1\",\"minor\":\"33\",\"gitVersion\":\"v1.33.0\"}");
        KubeClient view = client.withInterceptor(recording("view"));

        view.discovery().serverVersion();

        assertThat(seen).first().isEqualTo("view GET /version");
    }

    @Test
    void closingTheViewLeavesTheClientAndItsConnectionsOpen() {
        server.reply("GET", "/api/v1/namespaces/default/configmaps/web", 200, CM);
        KubeClient view = client.withInterceptor(recording("view"));
        configMaps(view).get("web");

        view.close();

        assertThat(configMaps(client).get("web").metadata().name()).isEqualTo("web");
        assertThat(configMaps(view).get("web").metadata().name()).isEqualTo("web");
    }

    @Test
    void anInterceptorThatReturnsNullIsNamedInTheError() {
        KubeClient view = client.withInterceptor(new ReturnsNull());

        assertThatThrownBy(() -> configMaps(view).get("web"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ReturnsNull");
    }

    /** Breaks the interceptor contract. */
    private static final class ReturnsNull implements Interceptor {
        @Override
        public ApiResponse intercept(Chain chain) {
            return null;
        }
    }
}
