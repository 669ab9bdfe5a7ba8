/**
 * The resource layer: which resources are served ({@link io.kubeloop.apiserver.registry.ResourceRegistry},
 * data-driven from {@link io.kubeloop.apiserver.registry.BuiltinResources}) and the Kubernetes semantics of
 * every verb over the storage ({@link io.kubeloop.apiserver.registry.ObjectRegistry}): generateName, uid,
 * creationTimestamp, generation, optimistic concurrency, status split, finalizers, DeleteOptions, dry run,
 * namespace existence and lifecycle, name validation, managedFields, Status errors
 * ({@link io.kubeloop.apiserver.registry.ApiErrors}).
 *
 * <p>Seams for the libraries the lead wires in: {@link io.kubeloop.apiserver.registry.ObjectValidator}
 * (schema), {@link io.kubeloop.apiserver.registry.PatchApplier} (patch / server-side apply; the stand-in is
 * {@link io.kubeloop.apiserver.registry.SimplePatchApplier}), {@link io.kubeloop.apiserver.registry.ManagedFields}
 * (Update entries until SSA computes them).
 */
package io.kubeloop.apiserver.registry;
