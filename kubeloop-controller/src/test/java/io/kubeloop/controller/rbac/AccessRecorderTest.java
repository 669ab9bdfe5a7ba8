package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The recorder notes a request as it is sent. Here the server is absent (nothing listens on the port),
 * so every request fails: it is noted all the same. The sample-controller's integration test records a
 * whole run against a real server.
 */
class AccessRecorderTest {

    private final KubeClient client = KubeClient.create(
            new ClientConfig(
                    URI.create("https://127.0.0.1:9"),
                    SslContextBuilder.create().insecureSkipTlsVerify().build(),
                    null,
                    AuthProvider.none(),
                    "shop",
                    null,
                    "nowhere"),
            ClientOptions.builder()
                    .maxRetries(0)
                    .connectTimeout(Duration.ofSeconds(2))
                    .build());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void everyRequestIsNotedOnceWithItsRbacAttributesWhateverTheAnswer() {
        AccessRecorder recorder = AccessRecorder.create();
        KubeClient recorded = client.withInterceptor(recorder.interceptor());
        var deployments = recorded.resource(
                new GroupVersionResource("apps", "v1", "deployments"), ResourceScope.NAMESPACED, DynamicObject.class);

        assertThatThrownBy(() -> deployments.get("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.get("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.delete("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.inAnyNamespace().list()).isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactly(
                        new ApiAccess.Resource("list", "apps", "deployments", "", "", ""),
                        new ApiAccess.Resource("delete", "apps", "deployments", "", "shop", "web"),
                        new ApiAccess.Resource("get", "apps", "deployments", "", "shop", "web"));
    }

    @Test
    void clearForgetsWhatWasNoted() {
        AccessRecorder recorder = AccessRecorder.create();
        KubeClient recorded = client.withInterceptor(recorder.interceptor());
        assertThatThrownBy(() -> recorded.raw().get("/version")).isInstanceOf(RuntimeException.class);
        assertThat(recorder.accesses()).containsExactly(new ApiAccess.NonResource("get", "/version"));

        recorder.clear();

        assertThat(recorder.accesses()).isEmpty();
    }
}
