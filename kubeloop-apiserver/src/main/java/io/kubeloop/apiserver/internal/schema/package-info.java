/**
 * Schemas for the embedded API server: structural schemas of CustomResourceDefinitions
 * ({@link io.kubeloop.apiserver.internal.schema.StructuralSchema}: validation, pruning, defaulting),
 * schemas of the built-in kinds from Kubernetes' own OpenAPI of the release the server is
 * ({@link io.kubeloop.apiserver.internal.schema.BuiltinSchemas}, read from the release's documents by
 * {@link io.kubeloop.apiserver.internal.schema.UpstreamOpenApi}) and {@code fieldValidation} handling
 * ({@link io.kubeloop.apiserver.internal.schema.FieldValidationCheck}). The documents the server publishes are
 * written in {@code io.kubeloop.apiserver.internal.openapi}.
 *
 * <p>Everything here is a pure function over Jackson 3 trees (reading only the bundled documents): no
 * HTTP. Behaviour follows
 * apiextensions-apiserver, kube-openapi and kubectl 1.32.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.schema;
