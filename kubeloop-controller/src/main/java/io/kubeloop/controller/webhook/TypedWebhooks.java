package io.kubeloop.controller.webhook;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.controller.internal.webhook.JsonPatches;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The defaulting and validating webhooks of one type, on controller-runtime's paths:
 * {@code /mutate-<group with - for .>-<version>-<lowercase kind>} and {@code /validate-…}. Each answers
 * an {@code admission.k8s.io/v1} AdmissionReview:
 * <ul>
 *   <li>mutate: the object, read as the type, goes through the {@link Defaulter}; the answer is the JSON
 *       patch of what the defaulter changed (fields the type does not model are left alone);</li>
 *   <li>validate: {@link Validator#validateCreate}, {@code validateUpdate} (with the old object) or
 *       {@code validateDelete} by the operation; its warnings go back with the answer; an
 *       {@link AdmissionDeniedException} denies with its message and code; any other exception denies
 *       with code 500.</li>
 * </ul>
 *
 * @param <T> the object type, registered in the scheme (e.g. annotated with {@code @Kind})
 */
public final class TypedWebhooks<T> {

    private final Class<T> type;
    private final GroupVersionKind gvk;
    private Defaulter<T> defaulter;
    private Validator<T> validator;

    private TypedWebhooks(Class<T> type, GroupVersionKind gvk) {
        this.type = type;
        this.gvk = gvk;
    }

    /**
     * Webhooks for {@code type}.
     *
     * @throws IllegalArgumentException when {@code scheme} does not know the type
     */
    public static <T> TypedWebhooks<T> forType(Class<T> type, Scheme scheme) {
        GroupVersionKind gvk = scheme.gvkOf(type)
                .orElseThrow(() -> new IllegalArgumentException(type.getName() + " is not in the scheme"));
        return new TypedWebhooks<>(type, gvk);
    }

    /** Adds the defaulting (mutating) webhook. */
    public TypedWebhooks<T> withDefaulter(Defaulter<T> d) {
        this.defaulter = Objects.requireNonNull(d, "defaulter");
        return this;
    }

    /** Adds the validating webhook. */
    public TypedWebhooks<T> withValidator(Validator<T> v) {
        this.validator = Objects.requireNonNull(v, "validator");
        return this;
    }

    /** {@code /mutate-<group>-<version>-<kind>}. */
    public String mutatePath() {
        return "/mutate-" + suffix();
    }

    /** {@code /validate-<group>-<version>-<kind>}. */
    public String validatePath() {
        return "/validate-" + suffix();
    }

    private String suffix() {
        return gvk.group().replace('.', '-') + "-" + gvk.version() + "-"
                + gvk.kind().toLowerCase(Locale.ROOT);
    }

    /** Registers the webhooks given on {@code server}. */
    public void registerWith(WebhookServer server) {
        if (defaulter != null) {
            Defaulter<T> d = defaulter;
            server.register(mutatePath(), review -> answer(review, request -> mutate(d, request)));
        }
        if (validator != null) {
            Validator<T> v = validator;
            server.register(validatePath(), review -> answer(review, request -> validate(v, request)));
        }
    }

    private ObjectNode mutate(Defaulter<T> d, JsonNode request) {
        T object = read(request.path("object"));
        T defaulted = d.defaults(object);
        ArrayNode patch = JsonPatches.diff(
                KubeJson.mapper().valueToTree(object), KubeJson.mapper().valueToTree(defaulted));
        ObjectNode response = allowed(List.of());
        if (!patch.isEmpty()) {
            response.put("patchType", "JSONPatch");
            response.put(
                    "patch",
                    Base64.getEncoder().encodeToString(KubeJson.mapper().writeValueAsBytes(patch)));
        }
        return response;
    }

    private ObjectNode validate(Validator<T> v, JsonNode request) {
        List<String> warnings = switch (request.path("operation").asString("")) {
            case "CREATE" -> v.validateCreate(read(request.path("object")));
            case "UPDATE" -> v.validateUpdate(read(request.path("oldObject")), read(request.path("object")));
            case "DELETE" -> v.validateDelete(read(request.path("oldObject")));
            default -> List.of();
        };
        return allowed(warnings == null ? List.of() : warnings);
    }

    private T read(JsonNode object) {
        return KubeJson.mapper().treeToValue(object, type);
    }

    private static ObjectNode allowed(List<String> warnings) {
        ObjectNode response = KubeJson.mapper().createObjectNode();
        response.put("allowed", true);
        if (!warnings.isEmpty()) {
            ArrayNode w = response.putArray("warnings");
            warnings.forEach(w::add);
        }
        return response;
    }

    /** Wraps a response in an AdmissionReview with the request's uid; exceptions become denials. */
    static JsonNode answer(JsonNode review, Function<JsonNode, ObjectNode> handle) {
        JsonNode request = review.path("request");
        ObjectNode response;
        try {
            response = handle.apply(request);
        } catch (AdmissionDeniedException e) {
            response = denied(e.code(), e.getMessage());
        } catch (RuntimeException e) {
            response = denied(500, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        response.put("uid", request.path("uid").asString(""));
        ObjectNode out = KubeJson.mapper().createObjectNode();
        out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        out.set("response", response);
        return out;
    }

    private static ObjectNode denied(int code, String message) {
        ObjectNode response = KubeJson.mapper().createObjectNode();
        response.put("allowed", false);
        response.putObject("status").put("code", code).put("message", message);
        return response;
    }
}
