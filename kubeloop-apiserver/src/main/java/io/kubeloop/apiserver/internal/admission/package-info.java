/**
 * Validating admission: ValidatingAdmissionPolicies and their bindings
 * ({@code admissionregistration.k8s.io/v1}) evaluated on writes as kube-apiserver evaluates them, after
 * an object is defaulted and validated and before it is stored.
 */
package io.kubeloop.apiserver.internal.admission;
