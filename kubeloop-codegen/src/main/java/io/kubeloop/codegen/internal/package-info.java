/** The generators' implementation: no API. */
package io.kubeloop.codegen.internal;
