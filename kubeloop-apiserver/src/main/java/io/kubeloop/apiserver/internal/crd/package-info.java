/**
 * CustomResourceDefinitions (apiextensions.k8s.io/v1) in the embedded API server:
 * {@link io.kubeloop.apiserver.internal.crd.CustomResourceValidator} validates and defaults CRDs on write and
 * admits custom resources through their version's structural schema;
 * {@link io.kubeloop.apiserver.internal.crd.CustomResourceDefinitions} accepts names, sets the conditions,
 * serves each CRD's versions through the {@link io.kubeloop.apiserver.internal.registry.ResourceRegistry}, and
 * empties and removes deleted CRDs.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Threads</b>: one virtual thread reconciles CRDs serially from a store watch; one virtual
 *       thread per terminating CRD deletes its objects, woken by a watch on their storage.</li>
 *   <li><b>Locks</b>: none of its own; every write is a normal {@link io.kubeloop.apiserver.internal.registry.ObjectRegistry}
 *       write (optimistic concurrency), and the validator runs under the store lock doing CPU work only.</li>
 * </ul>
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.crd;
