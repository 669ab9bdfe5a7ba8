/**
 * Samples: {@code tour} (the client in a few calls) and {@code samplecontroller} (the Foo custom
 * resource that owns a Deployment, after Go's sample-controller).
 */
package io.kubeloop.samples;
