/** What a read from a controller's cache costs: the cached instance itself against a deep copy. */
package io.kubeloop.bench.cache;
