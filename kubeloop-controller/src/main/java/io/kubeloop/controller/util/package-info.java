/**
 * Helpers a reconciler needs again and again, as controller-runtime's {@code controllerutil}:
 * {@link io.kubeloop.controller.util.OwnerReferences} (controller and owner references with their
 * namespace rules), {@link io.kubeloop.controller.util.Finalizers}, and
 * {@link io.kubeloop.controller.util.CreateOrUpdate}. They work on objects of any Java type and never
 * change an object passed in.
 */
package io.kubeloop.controller.util;
