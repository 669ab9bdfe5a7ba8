/**
 * Pure functions on Jackson trees for the API server's PATCH and write paths: JSON patch
 * ({@link io.kubeloop.apiserver.internal.patch.JsonPatch}), JSON merge patch
 * ({@link io.kubeloop.apiserver.internal.patch.MergePatch}), strategic merge patch
 * ({@link io.kubeloop.apiserver.internal.patch.StrategicMergePatch} with the built-in kinds' merge keys in
 * {@link io.kubeloop.apiserver.internal.patch.StrategicMergeSchemas}), and server-side apply with
 * {@code metadata.managedFields} ({@link io.kubeloop.apiserver.internal.patch.ServerSideApply},
 * {@link io.kubeloop.apiserver.internal.patch.ManagedFields}, {@link io.kubeloop.apiserver.internal.patch.FieldSet}).
 *
 * <p>No HTTP and no storage here: every function takes the live object and the request body and returns
 * the new object, or throws {@link io.kubeloop.apiserver.internal.patch.PatchException} carrying the status the
 * real kube-apiserver would answer. Everything is stateless and thread-safe; inputs are never modified.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.patch;
