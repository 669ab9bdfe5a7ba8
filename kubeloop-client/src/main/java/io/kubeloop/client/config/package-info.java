/**
 * Client configuration: kubeconfig loading and merging, in-cluster service accounts, TLS material and credential providers (token, token file, exec plugins).
 */
package io.kubeloop.client.config;
