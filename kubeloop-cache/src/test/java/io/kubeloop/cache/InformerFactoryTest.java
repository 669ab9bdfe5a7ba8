package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.TransportException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The factory's sharing and lifecycle rules (client-go's SharedInformerFactory). */
class InformerFactoryTest {

    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    /** A transport whose server refuses every connection; counts requests. */
    static final class Refusing implements ApiTransport {
        final AtomicInteger requests = new AtomicInteger();

        @Override
        public URI server() {
            return URI.create("https://127.0.0.1:1");
        }

        @Override
        public ApiResponse send(ApiRequest request) {
            requests.incrementAndGet();
            throw new TransportException(server(), "connection refused", new ConnectException("Connection refused"));
        }

        @Override
        public void close() {}
    }

    @Test
    void oneInformerPerResourceAndScopeSharedByEveryoneWhoAsks() {
        try (InformerFactory f =
                InformerFactory.create(KubeClient.create(new Refusing(), "default"), InformerOptions.defaults())) {
            SharedIndexInformer<DynamicObject> a =
                    f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.all());
            assertThat(f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.all()))
                    .isSameAs(a);
            assertThat(f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.namespace("shop")))
                    .isNotSameAs(a);
            assertThat(f.dynamicInformerFor(
                            PODS, ResourceScope.NAMESPACED, InformerScope.all().withLabelSelector("app=web")))
                    .isNotSameAs(a);
        }
    }

    @Test
    void startIsIdempotentWaitCoversStartedInformersAndShutdownStopsThemForGood() {
        Refusing transport = new Refusing();
        InformerFactory f = InformerFactory.create(KubeClient.create(transport, "default"), InformerOptions.defaults());
        SharedIndexInformer<DynamicObject> pods =
                f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.all());
        assertThat(f.waitForCacheSync(Duration.ofMillis(10))).isEmpty();
        f.start();
        f.start();
        SharedIndexInformer<DynamicObject> later = f.dynamicInformerFor(
                new GroupVersionResource("apps", "v1", "deployments"), ResourceScope.NAMESPACED, InformerScope.all());
        Map<InformerFactory.Key, Boolean> synced = f.waitForCacheSync(Duration.ofMillis(100));
        assertThat(synced).hasSize(1).containsValue(false);
        f.shutdown();
        assertThat(pods.isStopped()).isTrue();
        assertThat(later.isStopped()).isTrue();
        f.start(); // no-op after shutdown
        f.shutdown();
        int requests = transport.requests.get();
        assertThat(requests).isPositive();
        assertThat(later.hasSynced()).isFalse();
    }

    @Test
    void aShutDownFactoryRefusesEveryInformerAndListerAtOnceNamingWhatWasAsked() {
        Refusing transport = new Refusing();
        InformerFactory f = InformerFactory.create(KubeClient.create(transport, "default"), InformerOptions.defaults());
        f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.all());
        f.shutdown();

        assertThatThrownBy(() -> f.dynamicInformerFor(PODS, ResourceScope.NAMESPACED, InformerScope.all()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down")
                .hasMessageContaining("pods");
        assertThatThrownBy(() -> f.informerFor(Pod.class, InformerScope.all()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down")
                .hasMessageContaining(Pod.class.getName());
        assertThatThrownBy(() -> f.listerFor(Pod.class, InformerScope.all()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Pod.class.getName());
        assertThatThrownBy(() -> f.dynamicInformerFor("foos.samplecontroller.k8s.io", InformerScope.all()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("foos.samplecontroller.k8s.io");
        assertThat(transport.requests.get())
                .as("no discovery asked for a refused informer")
                .isZero();
    }
}
