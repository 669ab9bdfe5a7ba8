/**
 * The race: Go's sample-controller (a Foo owns an nginx Deployment and mirrors its available
 * replicas) as an operator in kubeloop, the Java Operator SDK and kubernetes-client/java, each in
 * its own JVM against a fresh embedded API server, timed while the harness creates and rescales
 * Foos; see {@link io.kubeloop.bench.race.RaceBenchmark} and BENCHMARKS.md.
 */
package io.kubeloop.bench.race;
