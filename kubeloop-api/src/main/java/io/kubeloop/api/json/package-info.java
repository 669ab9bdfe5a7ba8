/**
 * The one Jackson configuration for Kubernetes JSON ({@link io.kubeloop.api.json.KubeJson}).
 */
package io.kubeloop.api.json;
