/**
 * The end-to-end API-server benchmark: kubeloop's embedded API server next to fabric8's
 * KubernetesMockServer in CRUD mode, each in its own child JVM, driven by one neutral client (the
 * JDK {@code HttpClient}) through creates, a large LIST and a watch fan-out; see
 * {@link io.kubeloop.bench.server.ServerBenchmark} and BENCHMARKS.md ("API server").
 */
package io.kubeloop.bench.server;
