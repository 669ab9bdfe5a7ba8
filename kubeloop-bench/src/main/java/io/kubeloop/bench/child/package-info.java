/** The harness side of the line protocols the benchmarks' child JVMs speak on their stdout. */
package io.kubeloop.bench.child;
