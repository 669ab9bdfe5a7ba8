/**
 * JMH benchmarks of kubeloop-workqueue next to kubernetes-client/java's workqueue; see
 * BENCHMARKS.md for how to run them and the results.
 */
package io.kubeloop.bench.workqueue;
