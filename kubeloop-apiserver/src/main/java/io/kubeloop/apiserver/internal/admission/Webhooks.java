package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.cel.Expression;
import io.kubeloop.apiserver.internal.patch.JsonPatch;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admission webhooks: the MutatingWebhookConfigurations and ValidatingWebhookConfigurations in the
 * store, called with an {@code admission.k8s.io/v1} AdmissionReview as kube-apiserver calls them.
 *
 * <p>A webhook is called when its {@code rules} (operations, groups, versions, resources with
 * subresources, scope), {@code namespaceSelector}, {@code objectSelector} ({@link MatchResources}) and
 * {@code matchConditions} match; under {@code matchPolicy: Equivalent} a webhook whose rules name another
 * version of the resource gets the objects converted to that version. Mutating webhooks run first, one after another in the order of their configurations' names,
 * each seeing the changes of the ones before; a JSON-patch response is applied to the object; when a
 * later webhook changes the object, those before it with {@code reinvocationPolicy: IfNeeded} are
 * called once more. Validating webhooks run after the object is validated. A response with
 * {@code allowed: false} refuses the request ({@code admission webhook "<name>" denied the request:
 * <message>} with the response's code, at least 400); warnings become {@code Warning} headers. A webhook
 * that cannot be reached, times out ({@code timeoutSeconds}, 10 by default) or answers nonsense refuses
 * the request with a 500 under {@code failurePolicy: Fail} (the default) and is skipped under
 * {@code Ignore}. Dry-run requests call webhooks too (their {@code sideEffects} are {@code None} or
 * {@code NoneOnDryRun}), with {@code dryRun: true}.
 *
 * <p><b>Thread safety.</b> Thread-safe. Calls block the request's thread, never the store's lock.
 */
public final class Webhooks {

    private static final String GROUP = "admissionregistration.k8s.io/";
    private static final List<String> MATCH_VARIABLES = List.of("object", "oldObject", "request", "authorizer");

    /** A webhook that matches a request, and the version of the resource it is called for. */
    private record Matched(JsonNode hook, ResourceDefinition as) {}

    private final VersionedStore store;
    private final MatchResources.Cluster cluster;
    private final WebhookClient client;

    public Webhooks(VersionedStore store, ResourceRegistry resources, WebhookClient client) {
        this.store = store;
        this.cluster = MatchResources.Cluster.of(store, resources);
        this.client = client;
    }

    /** True when any webhook configuration exists: writes then admit outside the store's lock. */
    public boolean configured() {
        return !configurations("mutatingwebhookconfigurations").isEmpty()
                || !configurations("validatingwebhookconfigurations").isEmpty();
    }

    /**
     * Calls the mutating webhooks that match, applying their patches to {@code object} in place.
     *
     * @throws ApiException when a webhook refuses, or fails under {@code failurePolicy: Fail}
     */
    public void mutate(AdmissionRequest request, ObjectNode object, Consumer<String> warn) {
        if (isOwnResource(request)) {
            return;
        }
        List<Matched> hooks = webhooks("mutatingwebhookconfigurations", request);
        if (hooks.isEmpty()) {
            return;
        }
        int lastChange = -1;
        for (int i = 0; i < hooks.size(); i++) {
            if (call(hooks.get(i), request, object, true, warn)) {
                lastChange = i;
            }
        }
        // a webhook changed the object after others saw it: those that asked are called once more
        for (int i = 0; i < lastChange; i++) {
            if (hooks.get(i).hook().path("reinvocationPolicy").asString("Never").equals("IfNeeded")) {
                call(hooks.get(i), request, object, true, warn);
            }
        }
    }

    /**
     * Calls the validating webhooks that match.
     *
     * @throws ApiException when a webhook refuses, or fails under {@code failurePolicy: Fail}
     */
    public void validate(AdmissionRequest request, Consumer<String> warn) {
        if (isOwnResource(request)) {
            return;
        }
        for (Matched hook : webhooks("validatingwebhookconfigurations", request)) {
            call(hook, request, request.object(), false, warn);
        }
    }

    /** Webhook configurations do not govern their own writes (a broken webhook could never be removed). */
    private static boolean isOwnResource(AdmissionRequest r) {
        return r.resource().group().equals("admissionregistration.k8s.io");
    }

    /** The matching webhooks of every configuration of {@code plural}, configurations by name. */
    private List<Matched> webhooks(String plural, AdmissionRequest request) {
        List<StoredObject> configs = new ArrayList<>(configurations(plural));
        configs.sort(Comparator.comparing(StoredObject::name));
        List<Matched> out = new ArrayList<>();
        for (StoredObject config : configs) {
            for (JsonNode hook : config.object().path("webhooks")) {
                MatchResources.webhook(hook, request, cluster).ifPresent(as -> out.add(new Matched(hook, as)));
            }
        }
        return out;
    }

    /**
     * Calls one webhook with the object as it is now.
     *
     * @param mutating apply the answer's patch (a validating webhook's patch is ignored)
     * @return true when its patch changed {@code object}
     */
    private boolean call(
            Matched matched, AdmissionRequest request, ObjectNode object, boolean mutating, Consumer<String> warn) {
        JsonNode hook = matched.hook();
        String name = hook.path("name").asString();
        boolean failOpen = hook.path("failurePolicy").asString("Fail").equals("Ignore");
        // under matchPolicy Equivalent a webhook for another version of the resource gets the objects in it
        String version = matched.as().version();
        boolean converted = !version.equals(request.resource().version());
        String sentApiVersion = matched.as().apiVersion();
        ObjectNode sent = object == null || !converted
                ? object
                : request.resource().conversion().convert(object, sentApiVersion);
        ObjectNode sentOld = request.oldObject(matched.as());
        try {
            if (!conditionsHold(hook, request, matched.as(), sent, sentOld)) {
                return false;
            }
        } catch (Expression.Failure e) {
            if (failOpen) {
                return false;
            }
            throw internalError(
                    "failed calling webhook \"" + name + "\": failed to evaluate match condition: " + e.getMessage());
        }
        String uid = UUID.randomUUID().toString();
        JsonNode response;
        try {
            JsonNode answer = client.post(
                    hook.path("clientConfig"),
                    review(uid, request, version, sent, sentOld),
                    Duration.ofSeconds(hook.path("timeoutSeconds").asInt(10)));
            response = answer.path("response");
            if (!response.isObject()) {
                throw new WebhookClient.CallFailed("received invalid webhook response: no response");
            }
            if (!response.path("uid").asString("").equals(uid)) {
                throw new WebhookClient.CallFailed("received invalid webhook response: expected response.uid=\"" + uid
                        + "\", got \"" + response.path("uid").asString("") + "\"");
            }
        } catch (WebhookClient.CallFailed e) {
            if (failOpen) {
                return false;
            }
            throw internalError("failed calling webhook \"" + name + "\": " + e.getMessage());
        }
        response.path("warnings").forEach(w -> warn.accept(w.asString()));
        if (!response.path("allowed").asBoolean(false)) {
            throw denied(name, response.path("status"));
        }
        String patch = response.path("patch").asString("");
        if (!mutating || patch.isEmpty() || object == null) {
            return false;
        }
        JsonNode before = object.deepCopy();
        JsonNode patched;
        try {
            patched = JsonPatch.apply(sent, Base64.getDecoder().decode(patch));
        } catch (RuntimeException e) {
            throw internalError("admission webhook \"" + name + "\" returned an invalid patch: " + e.getMessage());
        }
        ObjectNode result = converted
                ? request.resource()
                        .conversion()
                        .convert((ObjectNode) patched, request.resource().apiVersion())
                : (ObjectNode) patched;
        object.removeAll();
        object.setAll(result);
        return !before.equals(object);
    }

    /** The webhook's {@code matchConditions}, over the objects in the version it is called for. */
    private boolean conditionsHold(
            JsonNode hook, AdmissionRequest request, ResourceDefinition as, ObjectNode object, ObjectNode old)
            throws Expression.Failure {
        JsonNode conditions = hook.path("matchConditions");
        if (conditions.isEmpty()) {
            return true;
        }
        Map<String, Object> activation = new HashMap<>();
        activation.put("object", Expression.value(object));
        activation.put("oldObject", Expression.value(old));
        activation.put("request", request.celValue(as));
        activation.put("authorizer", Expression.value(null));
        for (JsonNode c : conditions) {
            Expression e =
                    Expression.compile(c.path("expression").asString(""), MATCH_VARIABLES, Expression.Result.BOOL);
            if (!Boolean.TRUE.equals(e.evaluate(activation))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The AdmissionReview of {@code r}, its kind and resource in {@code version} (the request's own in
     * {@code requestKind} and {@code requestResource}), with the objects as sent.
     */
    private static JsonNode review(String uid, AdmissionRequest r, String version, ObjectNode object, ObjectNode old) {
        ObjectNode review = KubeJson.mapper().createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode req = review.putObject("request");
        req.put("uid", uid);
        var def = r.resource();
        req.putObject("kind").put("group", def.group()).put("version", version).put("kind", def.kind());
        req.putObject("resource")
                .put("group", def.group())
                .put("version", version)
                .put("resource", def.plural());
        if (!r.subresource().isEmpty()) {
            req.put("subResource", r.subresource());
        }
        req.putObject("requestKind")
                .put("group", def.group())
                .put("version", def.version())
                .put("kind", def.kind());
        req.putObject("requestResource")
                .put("group", def.group())
                .put("version", def.version())
                .put("resource", def.plural());
        if (!r.subresource().isEmpty()) {
            req.put("requestSubResource", r.subresource());
        }
        if (!r.name().isEmpty()) {
            req.put("name", r.name());
        }
        if (r.namespace() != null && !r.namespace().isEmpty()) {
            req.put("namespace", r.namespace());
        }
        req.put("operation", r.operation());
        ObjectNode user = req.putObject("userInfo");
        user.put("username", r.user().name());
        if (r.user().uid() != null && !r.user().uid().isEmpty()) {
            user.put("uid", r.user().uid());
        }
        var groups = user.putArray("groups");
        r.user().groups().forEach(groups::add);
        if (!r.user().extra().isEmpty()) {
            user.set("extra", KubeJson.mapper().valueToTree(r.user().extra()));
        }
        req.set("object", object == null ? null : object.deepCopy());
        req.set("oldObject", old == null ? null : old.deepCopy());
        req.put("dryRun", r.dryRun());
        String options = switch (r.operation()) {
            case "CREATE" -> "CreateOptions";
            case "UPDATE" -> "UpdateOptions";
            default -> "DeleteOptions";
        };
        req.putObject("options").put("apiVersion", "meta.k8s.io/v1").put("kind", options);
        return review;
    }

    /** kube-apiserver's refusal: the webhook's status, its message prefixed, its code at least 400. */
    private static ApiException denied(String name, JsonNode status) {
        String deniedBy = "admission webhook \"" + name + "\" denied the request";
        String message = status.path("message").asString("");
        String reason = status.path("reason").asString("");
        String text = !message.isEmpty()
                ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation";
        int code = Math.max(400, status.path("code").asInt(0));
        Status.Details details = status.path("details").isObject()
                ? KubeJson.mapper().treeToValue(status.path("details"), Status.Details.class)
                : null;
        return ApiExceptions.from(new Status(
                "Status", "v1", Map.of(), Status.FAILURE, text, reason.isEmpty() ? null : reason, details, code));
    }

    private static ApiException internalError(String message) {
        Status s = new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                "Internal error occurred: " + message,
                "InternalError",
                new Status.Details(null, null, null, null, List.of(new Status.Cause(null, message, null)), null),
                500);
        return ApiExceptions.from(s);
    }

    private List<StoredObject> configurations(String plural) {
        return store.list(ListQuery.all(GROUP + plural, null)).items();
    }
}
