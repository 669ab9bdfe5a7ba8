package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.admission.WebhookClient;
import io.kubeloop.apiserver.internal.registry.ObjectConversion;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code Webhook} conversion strategy of a CRD: objects are sent to the CRD's conversion webhook
 * in an {@code apiextensions.k8s.io/v1} ConversionReview and its answer is checked as kube-apiserver
 * checks it (one object back, in the desired {@code apiVersion}, same kind; only labels and annotations
 * of its metadata may change, other metadata is kept from the original). Any failure is a 500
 * {@code conversion webhook for <gvk> failed: …}.
 *
 * <p>Immutable and thread-safe.
 */
final class WebhookConversion implements ObjectConversion {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String kind;
    private final JsonNode clientConfig;
    private final WebhookClient client;

    /**
     * @param kind the CRD's kind
     * @param clientConfig {@code spec.conversion.webhook.clientConfig}
     */
    WebhookConversion(String kind, JsonNode clientConfig, WebhookClient client) {
        this.kind = kind;
        this.clientConfig = clientConfig.deepCopy();
        this.client = client;
    }

    @Override
    public ObjectNode convert(ObjectNode object, String apiVersion) {
        String gvk = apiVersion + ", Kind=" + kind;
        if (object.path("apiVersion").asString("").equals(apiVersion)) {
            return object.deepCopy();
        }
        String uid = UUID.randomUUID().toString();
        ObjectNode review = KubeJson.mapper().createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", uid).put("desiredAPIVersion", apiVersion);
        request.putArray("objects").add(object.deepCopy());
        JsonNode response;
        try {
            response = client.post(clientConfig, review, TIMEOUT).path("response");
        } catch (WebhookClient.CallFailed e) {
            throw failed(gvk, e.getMessage());
        }
        if (!response.path("uid").asString("").equals(uid)) {
            throw failed(
                    gvk,
                    "expected response.uid=\"" + uid + "\", got \""
                            + response.path("uid").asString("") + "\"");
        }
        JsonNode result = response.path("result");
        if (!result.path("status").asString("").equals("Success")) {
            throw failed(gvk, result.path("message").asString("conversion failed"));
        }
        JsonNode converted = response.path("convertedObjects");
        if (!converted.isArray() || converted.size() != 1 || !converted.get(0).isObject()) {
            throw failed(gvk, "returned " + converted.size() + " objects, expected 1");
        }
        ObjectNode out = (ObjectNode) converted.get(0).deepCopy();
        if (!out.path("apiVersion").asString("").equals(apiVersion)) {
            throw failed(
                    gvk,
                    "invalid apiVersion \"" + out.path("apiVersion").asString("") + "\", expected \"" + apiVersion
                            + "\"");
        }
        if (!out.path("kind").asString("").equals(object.path("kind").asString(""))) {
            throw failed(gvk, "invalid kind \"" + out.path("kind").asString("") + "\"");
        }
        // metadata other than labels and annotations is the original's
        ObjectNode metadata = object.path("metadata").deepCopy() instanceof ObjectNode m ? m : out.objectNode();
        JsonNode newMeta = out.path("metadata");
        for (String keep : new String[] {"labels", "annotations"}) {
            if (newMeta.has(keep)) {
                metadata.set(keep, newMeta.get(keep));
            } else {
                metadata.remove(keep);
            }
        }
        out.set("metadata", metadata);
        return out;
    }

    private static ApiException failed(String gvk, String message) {
        String text = "conversion webhook for " + gvk + " failed: " + message;
        return ApiExceptions.from(
                new Status("Status", "v1", Map.of(), Status.FAILURE, text, "InternalError", null, 500));
    }
}
