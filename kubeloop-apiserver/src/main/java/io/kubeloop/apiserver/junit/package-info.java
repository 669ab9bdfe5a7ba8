/**
 * JUnit 5 support: {@link io.kubeloop.apiserver.junit.EmbeddedApiServerTest} gives tests a real API
 * server and a client. JUnit Jupiter is an optional ("provided") dependency of this module.
 */
package io.kubeloop.apiserver.junit;
