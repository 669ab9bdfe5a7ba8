/**
 * What a reconciler reads and writes through: the {@link io.kubeloop.controller.client.Client}
 * (reads from the manager's {@link io.kubeloop.controller.client.Cache}, writes to the API server,
 * server-side apply from plain objects, the status subresource), the uncached
 * {@link io.kubeloop.controller.client.Reader}, {@link io.kubeloop.controller.client.ListOption}s,
 * and the cache's scope ({@link io.kubeloop.controller.client.CacheOptions},
 * {@link io.kubeloop.controller.client.ByObject}) — controller-runtime's {@code client} and
 * {@code cache} packages.
 */
package io.kubeloop.controller.client;
