/**
 * Who is asking and what they may do, as kube-apiserver decides it: authentication (the admin token, a
 * static token file, ServiceAccount tokens issued through the TokenRequest API, x509 client certificates,
 * anonymous requests), impersonation, the request's attributes (verb, API group, resource, subresource,
 * namespace, name, or a non-resource path), RBAC authorization over the server's own Role, ClusterRole,
 * RoleBinding and ClusterRoleBinding objects with the bootstrap policy and escalation checks, the access
 * reviews that {@code kubectl auth can-i} sends, and the audit log.
 */
package io.kubeloop.apiserver.internal.auth;
