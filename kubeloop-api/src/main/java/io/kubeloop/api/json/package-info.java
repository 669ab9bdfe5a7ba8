/**
 * The one Jackson configuration for Kubernetes JSON ({@link io.kubeloop.api.json.KubeJson}), and a byte-level
 * structural scanner ({@link io.kubeloop.api.json.JsonScanner}) for the compact decoding path, which needs only a
 * few members of each object and its byte span.
 */
package io.kubeloop.api.json;
