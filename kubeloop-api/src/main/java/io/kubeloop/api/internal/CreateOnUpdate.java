package io.kubeloop.api.internal;

import java.util.Set;

/**
 * The built-in resources whose PUT of a missing object creates it (their registry strategy's
 * {@code AllowCreateOnUpdate} is true in kube-apiserver): Endpoints, Events (core and
 * {@code events.k8s.io}), LimitRanges, Services, Leases, RuntimeClasses and the four RBAC resources. A PUT
 * of a missing object of any other resource — custom resources included — is a 404, and a PUT on a
 * subresource never creates. Such a creating PUT is authorized as {@code create} besides {@code update}:
 * shared by the embedded server and the client-side recorder of a manager's API use.
 *
 * <p>Stateless.
 */
public final class CreateOnUpdate {

    /** {@code group/resource} of every resource that creates on update. */
    private static final Set<String> RESOURCES = Set.of(
            "/endpoints",
            "/events",
            "/limitranges",
            "/services",
            "coordination.k8s.io/leases",
            "events.k8s.io/events",
            "node.k8s.io/runtimeclasses",
            "rbac.authorization.k8s.io/clusterrolebindings",
            "rbac.authorization.k8s.io/clusterroles",
            "rbac.authorization.k8s.io/rolebindings",
            "rbac.authorization.k8s.io/roles");

    private CreateOnUpdate() {}

    /**
     * Whether a PUT of a missing object of built-in resource {@code resource} in {@code group} creates it.
     *
     * @param group the API group, {@code ""} for core
     * @param resource the resource, e.g. {@code leases}
     */
    public static boolean allowed(String group, String resource) {
        return RESOURCES.contains(group + "/" + resource);
    }
}
