/**
 * How other model libraries plug into kubeloop: {@link io.kubeloop.api.spi.ModelSupport}, found with the
 * {@link java.util.ServiceLoader}.
 */
package io.kubeloop.api.spi;
