/**
 * The rules of particular built-in kinds, apart from the generic registry that applies them (kube-apiserver's
 * per-kind {@code registry/<group>/<kind>/strategy.go} files): defaulting
 * ({@link io.kubeloop.apiserver.internal.builtin.BuiltinDefaults}), validation of workloads and admission
 * registration ({@link io.kubeloop.apiserver.internal.builtin.WorkloadValidation}), unknown and duplicate fields
 * of built-ins per {@code fieldValidation} ({@link io.kubeloop.apiserver.internal.builtin.BuiltinFieldValidator}),
 * Service cluster IPs and node ports ({@link io.kubeloop.apiserver.internal.builtin.ServiceAddresses}), a Pod's
 * QoS class ({@link io.kubeloop.apiserver.internal.builtin.PodQos}) and PodDisruptionBudgets
 * ({@link io.kubeloop.apiserver.internal.builtin.DisruptionBudgets}).
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any release.
 */
package io.kubeloop.apiserver.internal.builtin;
