/** What the benchmark harnesses share for writing their results into BENCHMARKS.md. */
package io.kubeloop.bench.report;
