package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelectorSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The validation users of workload kinds meet most, with kube-apiserver's messages: a Deployment, ReplicaSet,
 * StatefulSet or DaemonSet needs a selector ({@code spec.selector: Required value}), not an empty one, that
 * matches its Pod template's labels ({@code spec.template.metadata.labels: Invalid value:
 * map[string]string{"app":"x"}: `selector` does not match template `labels`}), and may not change it
 * ({@code field is immutable}); a Pod spec (a Pod's or a template's) needs containers, each with a name and an
 * image.
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
                selector(def, spec, old == null ? null : old.path("spec"), errors);
                podSpec(spec.path("template").path("spec"), "spec.template.spec", errors);
            }
            case "/pods" -> podSpec(spec, "spec", errors);
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
        for (int i = 0; i < containers.size(); i++) {
            JsonNode c = containers.get(i);
            if (c.path("name").asString("").isEmpty()) {
                errors.add(ApiErrors.FieldError.required(path + ".containers[" + i + "].name", ""));
            }
            if (c.path("image").asString("").isEmpty()) {
                errors.add(ApiErrors.FieldError.required(path + ".containers[" + i + "].image", ""));
            }
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
