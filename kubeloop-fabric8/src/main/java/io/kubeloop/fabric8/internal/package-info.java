/** The {@link io.kubeloop.api.spi.ModelSupport} of fabric8's model classes; no API. */
package io.kubeloop.fabric8.internal;
