/**
 * Not API: kubeloop-api's implementation, exported only to kubeloop-client. {@code JsonScanner} is a
 * byte-level structural JSON scanner for the compact decoding path, which needs only a few members
 * of each object and its byte span.
 */
package io.kubeloop.api.internal;
