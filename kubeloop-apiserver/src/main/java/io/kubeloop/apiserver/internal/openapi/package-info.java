/**
 * The OpenAPI documents the server publishes (kube-apiserver's OpenAPI handlers, after kube-openapi): the v3
 * document of each group version ({@link io.kubeloop.apiserver.internal.openapi.OpenApiV3}) and the aggregated
 * v2 document ({@link io.kubeloop.apiserver.internal.openapi.OpenApiV2}), also as the protobuf kubectl asks for
 * ({@link io.kubeloop.apiserver.internal.openapi.GnosticV2}). Built-in group versions publish the release's own
 * documents limited to what the server serves; custom resources publish their CRDs' schemas.
 *
 * <p>Pure functions over Jackson 3 trees: no HTTP. Internal to kubeloop-apiserver and no API: the module does
 * not export it; it may change in any release.
 */
package io.kubeloop.apiserver.internal.openapi;
