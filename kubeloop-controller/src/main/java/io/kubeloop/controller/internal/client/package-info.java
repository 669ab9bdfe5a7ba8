/**
 * The manager's cache ({@link io.kubeloop.controller.internal.client.InformerCache}), its client
 * and uncached reader. Not an API: users reach them through {@code Manager.client()},
 * {@code Manager.cache()} and {@code Manager.apiReader()}.
 */
package io.kubeloop.controller.internal.client;
