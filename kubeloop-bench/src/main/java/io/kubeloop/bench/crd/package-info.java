/**
 * How long the embedded API server takes to accept and establish CustomResourceDefinitions with CEL
 * validation rules ({@link io.kubeloop.bench.crd.CrdInstallBenchmark}).
 */
package io.kubeloop.bench.crd;
