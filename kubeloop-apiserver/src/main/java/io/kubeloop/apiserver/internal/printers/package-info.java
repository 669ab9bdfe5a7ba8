/**
 * How the server prints objects as {@code kubectl get} tables (kube-apiserver's {@code printers}): the columns of
 * every built-in kind, as {@link io.kubeloop.apiserver.internal.printers.PrinterColumn}s, and the human durations
 * of their {@code AGE} cells. A custom resource's columns come from its CRD's {@code additionalPrinterColumns}.
 */
package io.kubeloop.apiserver.internal.printers;
