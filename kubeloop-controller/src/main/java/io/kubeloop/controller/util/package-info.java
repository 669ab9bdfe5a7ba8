/**
 * Helpers a reconciler needs again and again, as controller-runtime's {@code controllerutil}:
 * {@link io.kubeloop.controller.util.OwnedObjects} (what {@code ReconcileContext.owned} returns:
 * owned objects applied at their desired state, written only when they differ, with the
 * {@link io.kubeloop.controller.util.Applied} outcome), and under it
 * {@link io.kubeloop.controller.util.OwnerReferences} (controller and owner references with their
 * namespace rules), {@link io.kubeloop.controller.util.Finalizers}, and
 * {@link io.kubeloop.controller.util.CreateOrUpdate}. They work on objects of any Java type and never
 * change an object passed in.
 */
package io.kubeloop.controller.util;
