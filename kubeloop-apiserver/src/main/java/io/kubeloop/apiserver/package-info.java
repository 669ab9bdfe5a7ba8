/**
 * The embedded Kubernetes API server: {@link io.kubeloop.apiserver.EmbeddedApiServer} starts one in
 * process with {@link io.kubeloop.apiserver.ServerOptions}. Layers: {@code storage} (versioned store,
 * watch fan-out, journal seam), {@code registry} (resources and their semantics), {@code http} (Jetty,
 * TLS, routing, discovery, tables, watches), {@code junit} (a JUnit 5 extension), {@code fs} (owner-only
 * files for kubeconfigs, keys and the data directory).
 */
package io.kubeloop.apiserver;
