import io.kubeloop.api.spi.ModelSupport;

/**
 * Kubernetes API machinery without I/O: group/version/kind/resource names, the {@link
 * io.kubeloop.api.Scheme} mapping Java types to kinds, {@link io.kubeloop.api.DynamicObject} for
 * untyped objects, {@link io.kubeloop.api.ObjectMeta}, label and field selectors, the typed API
 * errors, the one Jackson configuration for Kubernetes JSON, and Kubernetes YAML streams.
 *
 * <p>Model libraries plug in through {@link io.kubeloop.api.spi.ModelSupport} ({@code kubeloop-models},
 * {@code kubeloop-fabric8}). The packages whose records Jackson binds are open to it. {@code
 * io.kubeloop.api.internal} is no API.
 */
@SuppressWarnings("module") // the qualified export names a module not on this module's path
module io.kubeloop.api {
    requires transitive tools.jackson.databind;
    requires tools.jackson.dataformat.yaml;
    requires org.snakeyaml.engine;
    requires transitive com.fasterxml.jackson.annotation;

    uses ModelSupport;

    exports io.kubeloop.api;
    exports io.kubeloop.api.crd;
    exports io.kubeloop.api.errors;
    exports io.kubeloop.api.json;
    exports io.kubeloop.api.selector;
    exports io.kubeloop.api.spi;
    exports io.kubeloop.api.yaml;
    exports io.kubeloop.api.internal to
            io.kubeloop.client,
            io.kubeloop.cache,
            io.kubeloop.controller,
            io.kubeloop.apiserver;

    opens io.kubeloop.api to
            tools.jackson.databind;
    opens io.kubeloop.api.errors to
            tools.jackson.databind;
    opens io.kubeloop.api.selector to
            tools.jackson.databind;
}
