/**
 * The fake list-and-watch source for tests, beside the reflectors and informers it feeds:
 * {@link io.kubeloop.cache.testing.FakeListerWatcher}, an in-memory collection that answers list and watch as an
 * API server does and takes the faults a test injects, so caches and controllers are tested without a server.
 */
package io.kubeloop.cache.testing;
