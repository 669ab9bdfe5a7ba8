/**
 * Real peers for kubeloop's tests and benchmarks, each run in its own JVM:
 * {@link io.kubeloop.peers.PeerProcess} starts them, {@link io.kubeloop.peers.Fabric8MockServerMain}
 * is fabric8's KubernetesMockServer in CRUD mode, and {@link io.kubeloop.peers.Fabric8InformerChild}
 * is fabric8's informer as a contender of kubeloop-bench's informer benchmark (started by the
 * benchmark from this module's class path). Test-only: no kubeloop module depends on this one at
 * run time.
 */
package io.kubeloop.peers;
