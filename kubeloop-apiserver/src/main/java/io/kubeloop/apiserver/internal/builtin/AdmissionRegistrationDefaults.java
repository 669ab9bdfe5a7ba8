package io.kubeloop.apiserver.internal.builtin;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's defaulting of {@code admissionregistration.k8s.io/v1} (its {@code SetDefaults_*}
 * functions), so that stored policies, bindings and webhook configurations read back as a real server's:
 *
 * <ul>
 *   <li>a ValidatingAdmissionPolicy: {@code failurePolicy: Fail}; its {@code matchConstraints} as any
 *       match resources below;</li>
 *   <li>match resources (a policy's {@code matchConstraints}, a binding's {@code matchResources} when it has
 *       one): {@code matchPolicy: Equivalent}, {@code namespaceSelector: {}}, {@code objectSelector: {}}, and
 *       {@code scope: "*"} on every rule of {@code resourceRules} and {@code excludeResourceRules};</li>
 *   <li>every webhook of a Validating- or MutatingWebhookConfiguration: {@code failurePolicy: Fail},
 *       {@code matchPolicy: Equivalent}, {@code namespaceSelector: {}}, {@code objectSelector: {}},
 *       {@code timeoutSeconds: 10}, {@code scope: "*"} on every rule, port 443 for a Service in
 *       {@code clientConfig}; a mutating one also {@code reinvocationPolicy: Never}.</li>
 * </ul>
 *
 * A field the object sets is never changed ({@code sideEffects} and {@code admissionReviewVersions} have no
 * default in v1: they are required). Stateless and thread-safe.
 */
final class AdmissionRegistrationDefaults {

    private AdmissionRegistrationDefaults() {}

    /** Defaults a ValidatingAdmissionPolicy's spec. */
    static void policy(ObjectNode spec) {
        put(spec, "failurePolicy", "Fail");
        if (spec.get("matchConstraints") instanceof ObjectNode match) {
            matchResources(match);
        }
    }

    /** Defaults a ValidatingAdmissionPolicyBinding's spec: its {@code matchResources}, when set. */
    static void binding(ObjectNode spec) {
        if (spec.get("matchResources") instanceof ObjectNode match) {
            matchResources(match);
        }
    }

    /** Defaults each webhook of a Validating- or MutatingWebhookConfiguration. */
    static void webhooks(ObjectNode configuration, boolean mutating) {
        for (JsonNode w : configuration.path("webhooks")) {
            if (!(w instanceof ObjectNode hook)) {
                continue;
            }
            put(hook, "failurePolicy", "Fail");
            put(hook, "matchPolicy", "Equivalent");
            emptyObject(hook, "namespaceSelector");
            emptyObject(hook, "objectSelector");
            put(hook, "timeoutSeconds", 10);
            if (mutating) {
                put(hook, "reinvocationPolicy", "Never");
            }
            rules(hook.path("rules"));
            if (hook.path("clientConfig").get("service") instanceof ObjectNode service) {
                put(service, "port", 443);
            }
        }
    }

    private static void matchResources(ObjectNode match) {
        put(match, "matchPolicy", "Equivalent");
        emptyObject(match, "namespaceSelector");
        emptyObject(match, "objectSelector");
        rules(match.path("resourceRules"));
        rules(match.path("excludeResourceRules"));
    }

    private static void rules(JsonNode rules) {
        for (JsonNode r : rules) {
            if (r instanceof ObjectNode rule) {
                put(rule, "scope", "*");
            }
        }
    }

    private static void emptyObject(ObjectNode o, String field) {
        JsonNode current = o.get(field);
        if (current == null || current.isNull()) {
            o.putObject(field);
        }
    }

    private static void put(ObjectNode o, String field, Object value) {
        JsonNode current = o.get(field);
        if (current != null && !current.isNull()) {
            return;
        }
        if (value instanceof Integer i) {
            o.put(field, i);
        } else {
            o.put(field, value.toString());
        }
    }
}
