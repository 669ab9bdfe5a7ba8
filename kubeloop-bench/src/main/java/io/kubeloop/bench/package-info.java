/**
 * Benchmarks against fabric8 kubernetes-client and kubernetes-client/java.
 */
package io.kubeloop.bench;
