/**
 * How the RBAC API of {@code io.kubeloop.controller.rbac} works: merging rules as controller-gen
 * merges them ({@link io.kubeloop.controller.internal.rbac.RuleMerger}), deriving a request's RBAC
 * attributes from its method and URL as the API server does
 * ({@link io.kubeloop.controller.internal.rbac.RequestAttributes}), reading {@code @Permission}
 * declarations ({@link io.kubeloop.controller.internal.rbac.Declarations}) and writing the RBAC
 * objects ({@link io.kubeloop.controller.internal.rbac.RbacObjects}). No API.
 */
package io.kubeloop.controller.internal.rbac;
