/** The embedded server's metrics under kube-apiserver's names, served on {@code /metrics}. */
package io.kubeloop.apiserver.internal.metrics;
