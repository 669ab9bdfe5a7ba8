package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelectorSpec;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The validation users of workload kinds meet most, with kube-apiserver's messages: a Deployment, ReplicaSet,
 * StatefulSet or DaemonSet needs a selector ({@code spec.selector: Required value}), not an empty one, that
 * matches its Pod template's labels ({@code spec.template.metadata.labels: Invalid value:
 * map[string]string{"app":"x"}: `selector` does not match template `labels`}), and may not change it
 * ({@code field is immutable}), and {@code replicas} may not be negative; a Pod spec (a Pod's, a Job's or a
 * template's) needs containers, each with a unique RFC 1123 label as name, an image, a supported
 * {@code imagePullPolicy} and ports in 1–65535 with a supported protocol, and a supported {@code restartPolicy};
 * a Service's ports are in range and, when there are several, named uniquely.
 *
 * <p>Stateless.
 */
final class WorkloadValidation {

    private WorkloadValidation() {}

    /**
     * Validates {@code object} (after defaulting) against {@code old} (null on create).
     *
     * @throws io.kubeloop.api.errors.InvalidException 422 with one cause per problem
     */
    static void validate(ResourceDefinition def, ObjectNode object, ObjectNode old) {
        if (def.custom()) {
            return;
        }
        List<ApiErrors.FieldError> errors = new ArrayList<>();
        JsonNode spec = object.path("spec");
        switch (def.group() + "/" + def.plural()) {
            case "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets" -> {
                if (spec.path("replicas").isNumber() && spec.path("replicas").asInt() < 0) {
                    errors.add(ApiErrors.FieldError.invalid(
                            "spec.replicas", spec.path("replicas").asInt(), "must be greater than or equal to 0"));
                }
                selector(def, spec, old == null ? null : old.path("spec"), errors);
                podSpec(spec.path("template").path("spec"), "spec.template.spec", errors);
            }
            case "/pods" -> podSpec(spec, "spec", errors);
            case "batch/jobs" -> podSpec(spec.path("template").path("spec"), "spec.template.spec", errors);
            case "/services" -> servicePorts(spec, errors);
            case "admissionregistration.k8s.io/validatingadmissionpolicies" ->
                AdmissionRegistrationValidation.policy(spec, errors);
            case "admissionregistration.k8s.io/validatingadmissionpolicybindings" ->
                AdmissionRegistrationValidation.binding(spec, errors);
            case "admissionregistration.k8s.io/validatingwebhookconfigurations" ->
                AdmissionRegistrationValidation.webhooks(object, false, errors);
            case "admissionregistration.k8s.io/mutatingwebhookconfigurations" ->
                AdmissionRegistrationValidation.webhooks(object, true, errors);
            default -> {}
        }
        if (!errors.isEmpty()) {
            throw ApiErrors.invalid(def, object.path("metadata").path("name").asString(""), errors);
        }
    }

    private static void selector(
            ResourceDefinition def, JsonNode spec, JsonNode oldSpec, List<ApiErrors.FieldError> errors) {
        JsonNode selector = spec.get("selector");
        if (selector == null || selector.isNull()) {
            errors.add(ApiErrors.FieldError.required("spec.selector", ""));
            return;
        }
        if (selector.path("matchLabels").isEmpty()
                && selector.path("matchExpressions").isEmpty()) {
            errors.add(new ApiErrors.FieldError(
                    "FieldValueInvalid",
                    "spec.selector",
                    "Invalid value: " + goSelector(selector) + ": empty selector is invalid for deployment"));
            return;
        }
        Map<String, String> labels = new TreeMap<>();
        spec.path("template")
                .path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> labels.put(e.getKey(), e.getValue().asString("")));
        boolean matches;
        try {
            matches = KubeJson.mapper()
                    .treeToValue(selector, LabelSelectorSpec.class)
                    .toSelector()
                    .matches(labels);
        } catch (RuntimeException e) {
            errors.add(
                    new ApiErrors.FieldError("FieldValueInvalid", "spec.selector", "Invalid value: " + e.getMessage()));
            return;
        }
        if (!matches) {
            errors.add(new ApiErrors.FieldError(
                    "FieldValueInvalid",
                    "spec.template.metadata.labels",
                    "Invalid value: " + goMap(labels) + ": `selector` does not match template `labels`"));
        }
        if (oldSpec != null
                && oldSpec.has("selector")
                && !oldSpec.get("selector").equals(selector)) {
            errors.add(new ApiErrors.FieldError(
                    "FieldValueInvalid",
                    "spec.selector",
                    "Invalid value: " + goSelector(selector) + ": field is immutable"));
        }
    }

    private static void podSpec(JsonNode spec, String path, List<ApiErrors.FieldError> errors) {
        JsonNode containers = spec.path("containers");
        if (!containers.isArray() || containers.isEmpty()) {
            errors.add(ApiErrors.FieldError.required(path + ".containers", ""));
            return;
        }
        Set<String> names = new HashSet<>();
        for (String list : List.of("initContainers", "containers")) {
            JsonNode all = spec.path(list);
            for (int i = 0; i < all.size(); i++) {
                container(all.get(i), path + "." + list + "[" + i + "]", names, errors);
            }
        }
        JsonNode restart = spec.path("restartPolicy");
        if (restart.isString() && !List.of("Always", "OnFailure", "Never").contains(restart.asString())) {
            errors.add(ApiErrors.FieldError.notSupported(
                    path + ".restartPolicy", restart.asString(), List.of("Always", "OnFailure", "Never")));
        }
    }

    private static void container(JsonNode c, String path, Set<String> names, List<ApiErrors.FieldError> errors) {
        String name = c.path("name").asString("");
        if (name.isEmpty()) {
            errors.add(ApiErrors.FieldError.required(path + ".name", ""));
        } else {
            NameRule.LABEL
                    .validate(name)
                    .forEach(problem -> errors.add(ApiErrors.FieldError.invalid(path + ".name", name, problem)));
            if (!names.add(name)) {
                errors.add(new ApiErrors.FieldError(
                        "FieldValueDuplicate", path + ".name", "Duplicate value: \"" + name + "\""));
            }
        }
        if (c.path("image").asString("").isEmpty()) {
            errors.add(ApiErrors.FieldError.required(path + ".image", ""));
        }
        JsonNode ports = c.path("ports");
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String p = path + ".ports[" + i + "]";
            if (!port.has("containerPort")) {
                errors.add(ApiErrors.FieldError.required(p + ".containerPort", ""));
            } else {
                portNumber(port.path("containerPort").asInt(0), p + ".containerPort", errors);
            }
            JsonNode protocol = port.path("protocol");
            if (protocol.isString() && !List.of("SCTP", "TCP", "UDP").contains(protocol.asString())) {
                errors.add(ApiErrors.FieldError.notSupported(
                        p + ".protocol", protocol.asString(), List.of("SCTP", "TCP", "UDP")));
            }
        }
        JsonNode pull = c.path("imagePullPolicy");
        if (pull.isString() && !List.of("Always", "IfNotPresent", "Never").contains(pull.asString())) {
            errors.add(ApiErrors.FieldError.notSupported(
                    path + ".imagePullPolicy", pull.asString(), List.of("Always", "IfNotPresent", "Never")));
        }
    }

    /** A Service's ports: each in range, named when there are several, names unique. */
    private static void servicePorts(JsonNode spec, List<ApiErrors.FieldError> errors) {
        JsonNode ports = spec.path("ports");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String p = "spec.ports[" + i + "]";
            String name = port.path("name").asString("");
            if (ports.size() > 1 && name.isEmpty()) {
                errors.add(ApiErrors.FieldError.required(p + ".name", ""));
            } else if (!name.isEmpty() && !names.add(name)) {
                errors.add(new ApiErrors.FieldError(
                        "FieldValueDuplicate", p + ".name", "Duplicate value: \"" + name + "\""));
            }
            portNumber(port.path("port").asInt(0), p + ".port", errors);
        }
    }

    private static void portNumber(int port, String field, List<ApiErrors.FieldError> errors) {
        if (port < 1 || port > 65535) {
            errors.add(ApiErrors.FieldError.invalid(field, port, "must be between 1 and 65535, inclusive"));
        }
    }

    /** Go's {@code %#v} of a {@code map[string]string}: keys sorted. */
    static String goMap(Map<String, String> m) {
        if (m.isEmpty()) {
            return "map[string]string(nil)";
        }
        return new TreeMap<>(m)
                .entrySet().stream()
                        .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                        .collect(Collectors.joining(", ", "map[string]string{", "}"));
    }

    private static String goSelector(JsonNode selector) {
        Map<String, String> labels = new TreeMap<>();
        selector.path("matchLabels")
                .properties()
                .forEach(e -> labels.put(e.getKey(), e.getValue().asString("")));
        return "v1.LabelSelector{MatchLabels:" + goMap(labels) + ", MatchExpressions:[]v1.LabelSelectorRequirement"
                + (selector.path("matchExpressions").isEmpty() ? "(nil)" : "{…}") + "}";
    }
}
