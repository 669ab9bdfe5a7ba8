/**
 * The one Jackson configuration for Kubernetes JSON.
 */
package io.kubeloop.api.json;
