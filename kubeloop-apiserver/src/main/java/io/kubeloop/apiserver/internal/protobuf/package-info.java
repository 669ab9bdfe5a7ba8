/**
 * Kubernetes protobuf request bodies ({@code application/vnd.kubernetes.protobuf}): the {@code k8s\0} envelope
 * around a {@code runtime.Unknown}, and a converter, driven by the descriptors of Kubernetes' own
 * {@code generated.proto} messages, from those messages to the JSON the server stores.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.protobuf;
