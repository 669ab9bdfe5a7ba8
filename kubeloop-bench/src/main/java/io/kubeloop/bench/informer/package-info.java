/**
 * The end-to-end informer benchmark: kubeloop's SharedIndexInformer next to fabric8
 * kubernetes-client's and kubernetes-client/java's, and a plain Jackson floor, each in its own child
 * JVM against one embedded API server; see {@link io.kubeloop.bench.informer.InformerBenchmark}
 * and BENCHMARKS.md.
 */
package io.kubeloop.bench.informer;
