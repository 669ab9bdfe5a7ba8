/**
 * Kubernetes YAML: single and multi-document streams read into {@link io.kubeloop.api.DynamicObject}s
 * or typed objects and written back, with the same binding as kubeloop's JSON
 * ({@link io.kubeloop.api.json.KubeJson}). See {@link io.kubeloop.api.yaml.KubeYaml}.
 */
package io.kubeloop.api.yaml;
