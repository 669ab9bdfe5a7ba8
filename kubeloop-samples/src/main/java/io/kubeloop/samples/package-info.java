/**
 * sample-controller: the Foo custom resource that owns a Deployment. (Arrives with the controller issue.)
 */
package io.kubeloop.samples;
