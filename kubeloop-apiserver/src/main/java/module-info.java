/**
 * The embedded Kubernetes API server: {@link io.kubeloop.apiserver.EmbeddedApiServer}, started with
 * {@link io.kubeloop.apiserver.ServerOptions}, is the API. Everything under
 * {@code io.kubeloop.apiserver.internal} is the implementation and no API; kubeloop-testing's
 * fault-injecting proxy alone reads {@code internal.tls} (its certificates).
 */
@SuppressWarnings({"module", "requires-automatic"}) // a qualified export to a module not on this path;
// client-java-proto, protobuf-java and kubeloop-cel (dev.cel merged) are automatic modules
module io.kubeloop.apiserver {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.time;
    requires transitive io.kubeloop.client;
    requires transitive tools.jackson.databind;
    requires io.kubeloop.cache;
    requires io.kubeloop.workqueue;
    requires tools.jackson.dataformat.yaml;
    requires org.bouncycastle.pkix;
    requires org.bouncycastle.provider;
    requires org.bouncycastle.util;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.alpn.java.server;
    requires org.eclipse.jetty.http2.server;
    requires org.eclipse.jetty.websocket.core.server;
    requires io.kubernetes.client.java.proto;
    requires com.google.protobuf;
    // CEL: the merged dev.cel jar and the libraries it runs on (re2j and ANTLR, automatic modules,
    // resolve with it)
    requires io.kubeloop.cel;
    requires com.google.common;
    requires org.threeten.extra;
    requires org.slf4j;
    // the live view (plain HTTP beside the server)
    requires jdk.httpserver;
    // the server's /metrics
    requires micrometer.core;
    requires micrometer.registry.prometheus;

    exports io.kubeloop.apiserver;
    exports io.kubeloop.apiserver.internal.tls to
            io.kubeloop.testing;
}
