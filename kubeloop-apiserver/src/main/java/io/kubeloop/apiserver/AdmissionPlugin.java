package io.kubeloop.apiserver;

import java.util.List;
import java.util.Optional;

/**
 * Admission plugins of kube-apiserver that the embedded server runs when enabled
 * ({@link ServerOptions#withAdmissionPlugin}), as {@code --enable-admission-plugins} enables them on a
 * cluster. Those a default cluster runs that the embedded server implements ({@link #alwaysOn()}: namespace
 * lifecycle, admission webhooks, ValidatingAdmissionPolicies) always run; these are off by default, as there.
 */
public enum AdmissionPlugin {

    /**
     * {@code OwnerReferencesPermissionEnforcement}, enabled on OpenShift and other hardened clusters: a
     * create or update that sets an owner reference with {@code blockOwnerDeletion: true} (as a controller
     * reference does) needs {@code update} on the owner's {@code finalizers} subresource, and an update that
     * changes an object's owner references (an adoption, a release) needs {@code delete} on that object.
     * Refusals are kube-apiserver's 403s, e.g.
     * {@code deployments.apps "web" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to
     * a resource you can't set finalizers on: , <nil>}.
     */
    OWNER_REFERENCES_PERMISSION_ENFORCEMENT("OwnerReferencesPermissionEnforcement");

    private final String pluginName;

    AdmissionPlugin(String pluginName) {
        this.pluginName = pluginName;
    }

    /** The plugin's name as kube-apiserver's {@code --enable-admission-plugins} takes it. */
    public String pluginName() {
        return pluginName;
    }

    /**
     * The plugin kube-apiserver's {@code --enable-admission-plugins} calls {@code pluginName} (matched exactly,
     * case included, as there); empty for a name of {@link #alwaysOn()} and for any other name.
     */
    public static Optional<AdmissionPlugin> named(String pluginName) {
        for (AdmissionPlugin p : values()) {
            if (p.pluginName.equals(pluginName)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * The names, as kube-apiserver's {@code --enable-admission-plugins} takes them, of the plugins of a default
     * cluster that the embedded server always runs and that cannot be switched off: {@code MutatingAdmissionWebhook},
     * {@code NamespaceLifecycle}, {@code ValidatingAdmissionPolicy} and {@code ValidatingAdmissionWebhook}, in
     * that order. kube-apiserver's other default plugins (LimitRanger, ServiceAccount, ResourceQuota,
     * PodSecurity and the like) are not implemented.
     */
    public static List<String> alwaysOn() {
        return List.of(
                "MutatingAdmissionWebhook",
                "NamespaceLifecycle",
                "ValidatingAdmissionPolicy",
                "ValidatingAdmissionWebhook");
    }
}
