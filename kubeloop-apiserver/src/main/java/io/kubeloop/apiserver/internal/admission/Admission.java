package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The admission chain of writes, in kube-apiserver's order: mutating webhooks, then (after the object
 * is defaulted and validated) the enabled validating plugins ({@link OwnerReferencesPermissionEnforcement}),
 * ValidatingAdmissionPolicies and validating webhooks.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
public final class Admission {

    private final AdmissionPolicies policies;
    private final Webhooks webhooks;
    private final Optional<OwnerReferencesPermissionEnforcement> ownerReferences;

    /** The chain a default cluster runs. */
    public Admission(VersionedStore store, ResourceRegistry resources) {
        this(store, resources, Optional.empty());
    }

    /** The chain a default cluster runs, with {@code OwnerReferencesPermissionEnforcement} when given. */
    public Admission(
            VersionedStore store,
            ResourceRegistry resources,
            Optional<OwnerReferencesPermissionEnforcement> ownerReferences) {
        this.policies = new AdmissionPolicies(store, resources);
        this.webhooks = new Webhooks(store, resources, new WebhookClient(new ServiceEndpoints(store)));
        this.ownerReferences = ownerReferences;
    }

    /** True when webhooks are configured: the request must then admit with no store lock held. */
    public boolean callsWebhooks() {
        return webhooks.configured();
    }

    /** Mutating admission: the mutating webhooks, changing {@code object} in place. */
    public void mutate(AdmissionRequest request, ObjectNode object, Consumer<String> warn) {
        webhooks.mutate(request, object, warn);
    }

    /** Validating admission: the enabled plugins, the policies, then the validating webhooks. */
    public void validate(AdmissionRequest request, Consumer<String> warn) {
        ownerReferences.ifPresent(plugin -> plugin.validate(request));
        policies.validate(request, warn);
        webhooks.validate(request, warn);
    }
}
