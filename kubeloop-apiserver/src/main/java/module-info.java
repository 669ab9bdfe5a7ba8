/**
 * The embedded Kubernetes API server: {@link io.kubeloop.apiserver.EmbeddedApiServer}, started with
 * {@link io.kubeloop.apiserver.ServerOptions}, is the API. Everything under
 * {@code io.kubeloop.apiserver.internal} is the implementation and no API; kubeloop-testing's
 * fault-injecting proxy alone reads {@code internal.tls} (its certificates).
 */
@SuppressWarnings("module") // the qualified export names a module that is not on this module's path
module io.kubeloop.apiserver {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.time;

    exports io.kubeloop.apiserver;
    exports io.kubeloop.apiserver.internal.tls to
            io.kubeloop.testing;
}
