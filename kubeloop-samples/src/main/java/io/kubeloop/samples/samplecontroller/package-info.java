/**
 * sample-controller in kubeloop: the {@link io.kubeloop.samples.samplecontroller.Foo} custom
 * resource ({@code samplecontroller.k8s.io/v1alpha1}) owns a Deployment; the
 * {@link io.kubeloop.samples.samplecontroller.FooReconciler} keeps the Deployment as the Foo asks
 * and mirrors its available replicas in the Foo's status;
 * {@link io.kubeloop.samples.samplecontroller.SampleController} runs it in a manager.
 */
package io.kubeloop.samples.samplecontroller;
