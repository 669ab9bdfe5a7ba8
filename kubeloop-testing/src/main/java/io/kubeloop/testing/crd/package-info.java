/**
 * CustomResourceDefinitions for tests: {@link io.kubeloop.testing.crd.CrdInstaller} creates them from
 * files, class path resources, text or annotated record types ({@link io.kubeloop.testing.crd.CrdSource})
 * and waits until the server serves them, failing with a
 * {@link io.kubeloop.testing.crd.CrdNotEstablishedException} that says why when it does not.
 * {@link io.kubeloop.testing.junit.EmbeddedApiServerTest#crds()} installs them before a test class runs.
 */
package io.kubeloop.testing.crd;
