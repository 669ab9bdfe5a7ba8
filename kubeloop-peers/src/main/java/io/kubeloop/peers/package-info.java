/**
 * Real peer servers for kubeloop's tests, each run in its own JVM: {@link io.kubeloop.peers.PeerProcess}
 * starts them, {@link io.kubeloop.peers.Fabric8MockServerMain} is fabric8's KubernetesMockServer in
 * CRUD mode. Test-only: no kubeloop module depends on this one at run time.
 */
package io.kubeloop.peers;
