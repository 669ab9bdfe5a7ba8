/**
 * Discovery (legacy and aggregated), the REST mapper and kubectl's on-disk discovery cache.
 */
package io.kubeloop.client.discovery;
