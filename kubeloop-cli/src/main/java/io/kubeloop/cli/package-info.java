/**
 * The {@code kubeloop} command line.
 */
package io.kubeloop.cli;
