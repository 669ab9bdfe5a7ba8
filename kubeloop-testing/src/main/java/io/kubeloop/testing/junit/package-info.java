/**
 * JUnit 5 support: {@link io.kubeloop.testing.junit.EmbeddedApiServerTest} gives tests a real API
 * server ({@link io.kubeloop.apiserver.EmbeddedApiServer}) and a client. Part of kubeloop-testing;
 * JUnit Jupiter is an optional ("provided") dependency there: tests bring it.
 */
package io.kubeloop.testing.junit;
