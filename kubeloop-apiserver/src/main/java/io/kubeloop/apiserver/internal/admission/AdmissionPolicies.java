package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.cel.Expression;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * ValidatingAdmissionPolicies and ValidatingAdmissionPolicyBindings, read from the store on every write
 * (a new policy applies to the next request) and compiled once per policy version.
 *
 * <p>For each policy whose {@code matchConstraints} match the request ({@link MatchResources}), each
 * binding naming it whose {@code matchResources} (if any) match too is evaluated, with the objects in the
 * version the policy's rules matched: once without params when the policy has no
 * {@code paramKind}, else once per param its {@code paramRef} finds (by name, in the request's namespace
 * when the param kind is namespaced and the ref names none, or by selector); none found is refused under
 * {@code parameterNotFoundAction: Deny} (the default) and passes under {@code Allow}. A failed validation
 * is acted on by the binding's {@code validationActions}: {@code Deny} refuses the request with the
 * validation's reason ({@code Invalid} 422 by default, {@code Forbidden} 403, {@code Unauthorized} 401,
 * {@code RequestEntityTooLarge} 413) and kube-apiserver's message, {@code Warn} adds a warning,
 * {@code Audit} is accepted and does nothing. An expression that does not compile or evaluate refuses
 * the request unless the policy's {@code failurePolicy} is {@code Ignore}.
 *
 * <p><b>Thread safety.</b> Thread-safe; the compiled-policy cache is concurrent.
 */
public final class AdmissionPolicies {

    private static final String GROUP = "admissionregistration.k8s.io/";

    private final VersionedStore store;
    private final ResourceRegistry resources;
    private final Map<String, CompiledPolicy> compiled = new ConcurrentHashMap<>();

    public AdmissionPolicies(VersionedStore store, ResourceRegistry resources) {
        this.store = store;
        this.resources = resources;
    }

    /**
     * Evaluates every policy that applies to {@code request}.
     *
     * @param warn receives warnings ({@code Warn} actions)
     * @throws ApiException when a {@code Deny} binding's validation fails, or a policy fails closed
     */
    public void validate(AdmissionRequest request, Consumer<String> warn) {
        List<StoredObject> policies = list("validatingadmissionpolicies");
        if (policies.isEmpty() || isPolicyResource(request.resource())) {
            return;
        }
        List<StoredObject> bindings = list("validatingadmissionpolicybindings");
        MatchResources.Cluster cluster = MatchResources.Cluster.of(store, resources);
        Map<String, CompiledPolicy> live = new HashMap<>();
        for (StoredObject p : policies) {
            String key = Metadata.text(p.object(), "uid") + "@" + p.resourceVersion();
            CompiledPolicy policy = compiled.computeIfAbsent(key, k -> new CompiledPolicy(p.object()));
            live.put(key, policy);
            Optional<ResourceDefinition> matched =
                    MatchResources.policy(policy.spec().path("matchConstraints"), request, cluster);
            if (matched.isEmpty()) {
                continue;
            }
            for (StoredObject b : bindings) {
                JsonNode binding = b.object();
                if (binding.path("spec").path("policyName").asString().equals(policy.name())) {
                    apply(policy, binding, request, matched.get(), cluster, warn);
                }
            }
        }
        compiled.keySet().retainAll(live.keySet());
    }

    /** Policies and bindings do not govern their own writes (a bad policy could otherwise never be fixed). */
    private static boolean isPolicyResource(ResourceDefinition def) {
        return def.group().equals("admissionregistration.k8s.io");
    }

    /**
     * Evaluates {@code policy} through {@code binding} when the binding's {@code matchResources} (if any)
     * match too, seeing the objects in {@code as}'s version: the one the policy's rules matched.
     */
    private void apply(
            CompiledPolicy policy,
            JsonNode binding,
            AdmissionRequest request,
            ResourceDefinition as,
            MatchResources.Cluster cluster,
            Consumer<String> warn) {
        JsonNode spec = binding.path("spec");
        JsonNode matchResources = spec.get("matchResources");
        if (matchResources != null
                && matchResources.isObject()
                && MatchResources.policy(matchResources, request, cluster).isEmpty()) {
            return;
        }
        String bindingName = binding.path("metadata").path("name").asString();
        String prefix = "ValidatingAdmissionPolicy '" + policy.name() + "' with binding '" + bindingName + "'";
        if (!policy.errors().isEmpty()) {
            fail(policy, request, prefix + " denied request: " + String.join("; ", policy.errors()));
            return;
        }
        List<Object> params = new ArrayList<>();
        if (policy.spec().path("paramKind").isObject()) {
            Optional<List<JsonNode>> found = params(policy.spec().path("paramKind"), spec.path("paramRef"), request);
            if (found.isEmpty() || found.get().isEmpty()) {
                boolean allow = spec.path("paramRef")
                        .path("parameterNotFoundAction")
                        .asString("Deny")
                        .equals("Allow");
                if (!allow) {
                    fail(
                            policy,
                            request,
                            prefix + " denied request: failed to configure binding: no params found"
                                    + " for policy binding with `Deny` parameterNotFoundAction");
                }
                return;
            }
            found.get().forEach(p -> params.add(Expression.value(p)));
        } else {
            params.add(Expression.value(null));
        }
        List<String> actions = new ArrayList<>();
        spec.path("validationActions").forEach(a -> actions.add(a.asString()));
        Map<String, Object> base = new HashMap<>();
        base.put("object", Expression.value(request.object(as)));
        base.put("oldObject", Expression.value(request.oldObject(as)));
        base.put("request", request.celValue(as));
        base.put("namespaceObject", Expression.value(namespaceObject(request).orElse(null)));
        for (Object param : params) {
            base.put("params", param);
            switch (policy.evaluate(base)) {
                case CompiledPolicy.Outcome.NotApplicable n -> {}
                case CompiledPolicy.Outcome.Allowed a -> {}
                case CompiledPolicy.Outcome.Error e ->
                    fail(policy, request, prefix + " denied request: " + e.message());
                case CompiledPolicy.Outcome.Violations v -> {
                    for (CompiledPolicy.Violation violation : v.violations()) {
                        if (actions.contains("Warn")) {
                            warn.accept("Validation failed for " + prefix + ": " + violation.message());
                        }
                        if (actions.contains("Deny")) {
                            throw denied(
                                    request, prefix + " denied request: " + violation.message(), violation.reason());
                        }
                    }
                }
            }
        }
    }

    /** Refuses the request unless the policy fails open. */
    private static void fail(CompiledPolicy policy, AdmissionRequest request, String message) {
        if (!policy.failOpen()) {
            throw denied(request, message, "Invalid");
        }
    }

    /**
     * kube-apiserver's refusal: {@code <resource>.<group> "<name>" is forbidden: <message>}, with the
     * validation's reason and its code, and the message as the one cause.
     */
    private static ApiException denied(AdmissionRequest request, String message, String reason) {
        ResourceDefinition def = request.resource();
        String qualified = def.group().isEmpty() ? def.plural() : def.plural() + "." + def.group();
        int code = switch (reason) {
            case "Forbidden" -> 403;
            case "Unauthorized" -> 401;
            case "RequestEntityTooLarge" -> 413;
            default -> 422;
        };
        Status status = new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                qualified + " \"" + request.name() + "\" is forbidden: " + message,
                reason,
                new Status.Details(
                        request.name(),
                        def.group(),
                        def.plural(),
                        null,
                        List.of(new Status.Cause(null, message, null)),
                        null),
                code);
        return ApiExceptions.from(status);
    }

    private Optional<List<JsonNode>> params(JsonNode paramKind, JsonNode paramRef, AdmissionRequest request) {
        String apiVersion = paramKind.path("apiVersion").asString();
        String kind = paramKind.path("kind").asString();
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        Optional<ResourceDefinition> def = resources.inGroupVersion(group, version).stream()
                .filter(d -> d.kind().equals(kind))
                .findFirst();
        if (def.isEmpty() || !paramRef.isObject()) {
            return Optional.empty();
        }
        String namespace = null;
        if (def.get().namespaced()) {
            namespace = paramRef.path("namespace").asString("");
            if (namespace.isEmpty()) {
                namespace = request.namespace();
            }
            if (namespace == null || namespace.isEmpty()) {
                return Optional.empty();
            }
        }
        String name = paramRef.path("name").asString("");
        if (!name.isEmpty()) {
            return Optional.of(store.get(def.get().storageId(), Metadata.key(namespace, name))
                    .map(o -> List.<JsonNode>of(o.object()))
                    .orElse(List.of()));
        }
        var selector = MatchResources.selector(paramRef.get("selector"));
        List<JsonNode> out = new ArrayList<>();
        for (StoredObject o :
                store.list(ListQuery.all(def.get().storageId(), namespace)).items()) {
            if (selector.matches(MatchResources.labels(o.object()))) {
                out.add(o.object());
            }
        }
        return Optional.of(out);
    }

    private Optional<JsonNode> namespaceObject(AdmissionRequest request) {
        if (request.namespace() == null || request.namespace().isEmpty()) {
            return Optional.empty();
        }
        return store.get("/namespaces", Metadata.key(null, request.namespace())).map(o -> (JsonNode) o.object());
    }

    private List<StoredObject> list(String plural) {
        return store.list(ListQuery.all(GROUP + plural, null)).items();
    }
}
