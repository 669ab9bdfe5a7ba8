/**
 * CEL, as kube-apiserver evaluates it: the validation rules of CustomResourceDefinitions
 * ({@code x-kubernetes-validations}) compiled against types derived from the structural schema and
 * evaluated on create and update, with transition rules, messages, reasons, field paths, ratcheting
 * and a cost budget; and refused at create when their estimated cost is over kube-apiserver's limits. The language itself is Google's CEL for Java ({@code dev.cel}); this package adds
 * Kubernetes' environment (its extension libraries, the schema's types, the error format).
 */
package io.kubeloop.apiserver.internal.cel;
