/**
 * The resource layer: which resources are served ({@link io.kubeloop.apiserver.internal.registry.ResourceRegistry},
 * data-driven from {@link io.kubeloop.apiserver.internal.registry.BuiltinResources}) and the Kubernetes semantics of
 * every verb over the storage ({@link io.kubeloop.apiserver.internal.registry.ObjectRegistry}): generateName, uid,
 * creationTimestamp, generation, optimistic concurrency, status split, finalizers, DeleteOptions, dry run,
 * namespace existence and lifecycle, name validation, managedFields, Status errors
 * ({@link io.kubeloop.apiserver.internal.registry.ApiErrors}).
 *
 * <p>Seams and their library-backed defaults: {@link io.kubeloop.apiserver.internal.registry.ObjectValidator}
 * ({@link io.kubeloop.apiserver.internal.builtin.BuiltinFieldValidator}: unknown and duplicate fields of built-ins per
 * {@code fieldValidation}; the rules of particular kinds are in {@code internal.builtin}, their tables in
 * {@code internal.printers}), {@link io.kubeloop.apiserver.internal.registry.PatchApplier}
 * ({@link io.kubeloop.apiserver.internal.registry.LibraryPatchApplier}: JSON, merge, strategic merge patch and server-side
 * apply), {@link io.kubeloop.apiserver.internal.registry.ManagedFieldsRecorder} (Update entries of non-apply writes, through the
 * patch library) and {@link io.kubeloop.apiserver.internal.registry.CustomResourceSchemas} (custom resources' schemas for
 * the OpenAPI documents).
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.registry;
