/**
 * The REST client: {@code ResourceClient} for any resource, typed or dynamic, and streaming watches.
 */
package io.kubeloop.client;
