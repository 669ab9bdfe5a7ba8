/**
 * The HTTP pipeline: interceptors for authentication, user agent, client-side rate limiting, retries and kubectl-style request logging, over the JDK HttpClient.
 */
package io.kubeloop.client.http;
