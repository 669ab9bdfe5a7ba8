/**
 * Discovery (aggregated and legacy), the REST mapper and kubectl's on-disk discovery cache.
 *
 * <p>{@link io.kubeloop.client.discovery.HttpDiscoveryClient} asks the server which groups, versions
 * and resources it serves ({@link io.kubeloop.client.discovery.ServerResources});
 * {@link io.kubeloop.client.discovery.CachedDiscoveryClient} puts kubectl's cache
 * ({@code ~/.kube/cache/discovery/<host>}, 6-hour TTL) in front of it, file-compatible with kubectl in
 * both directions; {@link io.kubeloop.client.discovery.DiscoveryRestMapper} resolves what users type
 * ({@code deploy}, {@code deployments.v1.apps}, {@code Foo}) to a
 * {@link io.kubeloop.client.discovery.RestMapping} with kubectl's rules, refetching discovery once on
 * a miss from an old cache.
 */
package io.kubeloop.client.discovery;
