/**
 * Schemas for the embedded API server: structural schemas of CustomResourceDefinitions
 * ({@link io.kubeloop.apiserver.internal.schema.StructuralSchema}: validation, pruning, defaulting),
 * schemas of the built-in kinds derived from fabric8's model
 * ({@link io.kubeloop.apiserver.internal.schema.BuiltinSchemas}), {@code fieldValidation} handling
 * ({@link io.kubeloop.apiserver.internal.schema.FieldValidationCheck}) and the OpenAPI documents kubectl reads
 * ({@link io.kubeloop.apiserver.internal.schema.OpenApiV3}, {@link io.kubeloop.apiserver.internal.schema.OpenApiV2}).
 *
 * <p>Everything here is a pure function over Jackson 3 trees: no I/O, no HTTP. Behaviour follows
 * apiextensions-apiserver, kube-openapi and kubectl 1.32.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.schema;
