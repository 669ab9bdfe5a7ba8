package io.kubeloop.controller.rbac;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.internal.rbac.RbacObjects;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The RBAC objects that let a manager run with no more rights than it needs, as kubebuilder's
 * {@code config/rbac} holds them, named after a prefix:
 *
 * <ul>
 *   <li>ServiceAccount {@code PREFIX-controller-manager} in the given namespace, which the
 *       manager's Deployment runs as;</li>
 *   <li>ClusterRole and ClusterRoleBinding {@code PREFIX-manager-role} / {@code PREFIX-manager-rolebinding}
 *       with the {@linkplain ManagerPermissions#clusterRules() cluster-wide rules}, when there are any;</li>
 *   <li>for each namespace with {@linkplain ManagerPermissions#namespaceRules() rules of its own}, in
 *       name order, a Role and RoleBinding of the same names there;</li>
 *   <li>Role and RoleBinding {@code PREFIX-leader-election-role} / {@code PREFIX-leader-election-rolebinding}
 *       in the Lease's namespace, when the manager elects a leader.</li>
 * </ul>
 *
 * Every binding binds its role to the ServiceAccount. Rules are merged and ordered as controller-gen
 * orders them, so the same permissions always give the same objects and the same YAML.
 *
 * {@snippet :
 * RbacManifests rbac = RbacManifests.of(manager.permissions(), "foo", "foo-system");
 * Files.writeString(Path.of("config/rbac.yaml"), rbac.yaml());
 * }
 *
 * <p>Immutable and thread-safe.
 *
 * @param objects the objects in the order above
 */
public record RbacManifests(List<DynamicObject> objects) {

    /** What kubectl accepts as a name: a DNS-1123 subdomain's characters. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

    public RbacManifests {
        objects = List.copyOf(objects);
    }

    /**
     * The RBAC objects for {@code permissions}.
     *
     * @param permissions what the manager needs
     * @param namePrefix the prefix of every object's name, e.g. {@code foo}
     * @param namespace the namespace of the ServiceAccount (where the manager runs)
     * @return the objects
     * @throws IllegalArgumentException if the prefix or namespace is no valid name
     */
    public static RbacManifests of(ManagerPermissions permissions, String namePrefix, String namespace) {
        Objects.requireNonNull(permissions, "permissions");
        requireName(namePrefix, "namePrefix");
        requireName(namespace, "namespace");
        String account = namePrefix + "-controller-manager";
        String role = namePrefix + "-manager-role";
        String binding = namePrefix + "-manager-rolebinding";
        List<DynamicObject> out = new ArrayList<>();
        out.add(RbacObjects.serviceAccount(account, namespace));
        if (!permissions.clusterRules().isEmpty()) {
            out.add(RbacObjects.role(role, null, permissions.clusterRules()));
            out.add(RbacObjects.binding(binding, null, role, account, namespace));
        }
        permissions.namespaceRules().forEach((ns, rules) -> {
            out.add(RbacObjects.role(role, ns, rules));
            out.add(RbacObjects.binding(binding, ns, role, account, namespace));
        });
        permissions.leaderElectionNamespace().ifPresent(ns -> {
            String electionRole = namePrefix + "-leader-election-role";
            out.add(RbacObjects.role(electionRole, ns, permissions.leaderElectionRules()));
            out.add(RbacObjects.binding(
                    namePrefix + "-leader-election-rolebinding", ns, electionRole, account, namespace));
        });
        return new RbacManifests(out);
    }

    /**
     * The RBAC objects of the controllers that {@code setups} add to a manager, found without a cluster: each
     * setup is a class with a public static method {@code addTo(Manager)} (as the sample-controller's), called
     * on a manager that is never started and whose client is never used.
     *
     * @param setups the classes adding the controllers
     * @param namePrefix the prefix of every object's name
     * @param namespace where the manager runs (its ServiceAccount's namespace)
     * @param leaseName the name of the manager's leader-election Lease (in {@code namespace}), or null when it
     *     does not elect a leader
     * @return the objects
     * @throws IllegalArgumentException when a setup has no public static {@code addTo(Manager)}, it fails, or a
     *     name is invalid
     */
    public static RbacManifests forControllers(
            List<Class<?>> setups, String namePrefix, String namespace, String leaseName) {
        requireName(namespace, "namespace");
        ManagerOptions options = ManagerOptions.defaults();
        if (leaseName != null) {
            options = options.withLeaderElection(LeaderElectionOptions.defaults(namespace, leaseName, "manifests"));
        }
        try (KubeClient unused = KubeClient.create(
                        new ClientConfig(
                                URI.create("https://kubernetes.default.svc"),
                                SslContextBuilder.create().build(),
                                null,
                                AuthProvider.none(),
                                namespace,
                                null,
                                "RBAC manifests (no connection)"),
                        ClientOptions.defaults());
                Manager manager = Manager.create(unused, options)) {
            for (Class<?> setup : setups) {
                Method addTo;
                try {
                    addTo = setup.getMethod("addTo", Manager.class);
                } catch (NoSuchMethodException e) {
                    throw new IllegalArgumentException(
                            setup.getName() + " has no public static addTo(io.kubeloop.controller.Manager)", e);
                }
                if (!Modifier.isStatic(addTo.getModifiers())) {
                    throw new IllegalArgumentException(setup.getName() + ".addTo(Manager) must be static");
                }
                try {
                    addTo.invoke(null, manager);
                } catch (ReflectiveOperationException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    throw new IllegalArgumentException(
                            setup.getName() + ".addTo(Manager) failed: " + cause.getMessage(), cause);
                }
            }
            return of(manager.permissions(), namePrefix, namespace);
        }
    }

    /** The objects as one YAML stream, documents separated by {@code ---}, for {@code kubectl apply -f}. */
    public String yaml() {
        return KubeYaml.writeAll(objects);
    }

    private static void requireName(String name, String what) {
        Objects.requireNonNull(name, what);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must be a lower-case DNS name, got \"" + name + "\"");
        }
    }
}
