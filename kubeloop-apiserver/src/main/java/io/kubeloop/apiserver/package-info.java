/**
 * The embedded Kubernetes API server. (Arrives with the API-server issue.)
 */
package io.kubeloop.apiserver;
