/**
 * The embedded Kubernetes API server, kubeloop-apiserver's API: {@link io.kubeloop.apiserver.EmbeddedApiServer}
 * starts one in process with {@link io.kubeloop.apiserver.ServerOptions}; {@link io.kubeloop.apiserver.Kubeconfig}
 * renders and writes kubeconfigs for it; {@link io.kubeloop.apiserver.DataDirectory} is the layout of its durable
 * state. The implementation is in {@code io.kubeloop.apiserver.internal.*} (storage, registry, http, …), which is
 * no API. Test support (a JUnit 5 extension, a fault-injecting proxy) is in kubeloop-testing.
 */
package io.kubeloop.apiserver;
