/**
 * Real peers for kubeloop's tests, each run in its own JVM so that their libraries (fabric8 7.x on
 * Jackson 2, kubernetes-client/java on gson and okhttp) never share a class path with kubeloop:
 * <ul>
 *   <li>{@link io.kubeloop.peers.PeerProcess} starts {@link io.kubeloop.peers.Fabric8MockServerMain},
 *       fabric8's KubernetesMockServer in CRUD mode, for kubeloop's client and informers to run against;</li>
 *   <li>{@link io.kubeloop.peers.InformerPeer} starts {@link io.kubeloop.peers.Fabric8InformerMain} or
 *       {@link io.kubeloop.peers.KubernetesClientInformerMain}, the other Java clients' informers, against
 *       a server named by a kubeconfig (kubeloop's embedded API server), and collects the
 *       {@link io.kubeloop.peers.InformerEvents} lines they print.</li>
 * </ul>
 * {@link io.kubeloop.peers.Fabric8InformerChild} is fabric8's informer as a contender of kubeloop-bench's
 * informer benchmark (started by the benchmark from this module's class path).
 * Test- and benchmark-only: no kubeloop module depends on this one at run time.
 */
package io.kubeloop.peers;
