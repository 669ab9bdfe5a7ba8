/**
 * Least-privilege RBAC for controllers: what a controller needs is declared next to its code and
 * compared with what it uses.
 *
 * <ul>
 *   <li>Declaration: the types a {@link io.kubeloop.controller.ControllerBuilder} watches are read
 *       ({@code get, list, watch}); the reconciler declares its writes and other reads with
 *       {@link io.kubeloop.controller.rbac.Permission} annotations, or the builder with
 *       {@code withPermissions(}{@link io.kubeloop.controller.rbac.PolicyRule}{@code )};
 *       {@code Manager.permissions()} adds Events and leader election and returns
 *       {@link io.kubeloop.controller.rbac.ManagerPermissions}.</li>
 *   <li>Generation: {@link io.kubeloop.controller.rbac.RbacManifests} writes the ServiceAccount,
 *       ClusterRole or Roles, bindings and leader election Role, as objects or YAML.</li>
 *   <li>Check: an {@link io.kubeloop.controller.rbac.AccessRecorder} notes each
 *       {@link io.kubeloop.controller.rbac.ApiAccess} a manager's client makes, and an
 *       {@link io.kubeloop.controller.rbac.AccessReport} names what was used but not granted, and
 *       granted but not used.</li>
 * </ul>
 */
package io.kubeloop.controller.rbac;
