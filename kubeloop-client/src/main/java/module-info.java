/**
 * kubeloop's REST client: {@link io.kubeloop.client.KubeClient} and its resource clients, watches
 * and options ({@code io.kubeloop.client}), kubeconfig and in-cluster configuration ({@code
 * io.kubeloop.client.config}), discovery and REST mapping ({@code io.kubeloop.client.discovery}),
 * and the HTTP pipeline's extension points — transport, requests, responses, interceptors ({@code
 * io.kubeloop.client.http}).
 */
module io.kubeloop.client {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.api;
    requires transitive io.kubeloop.time;
    requires transitive java.net.http;
    requires jdk.net;
    requires org.bouncycastle.pkix;
    requires org.bouncycastle.provider;
    requires tools.jackson.dataformat.yaml;
    requires org.slf4j;

    exports io.kubeloop.client;
    exports io.kubeloop.client.config;
    exports io.kubeloop.client.discovery;
    exports io.kubeloop.client.http;

    opens io.kubeloop.client.config to
            tools.jackson.databind;
}
