package io.kubeloop.controller.webhook;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A CRD's conversion webhook, hub and spoke as controller-runtime does it: one version is the hub, every
 * other version (a spoke) converts to and from it, so any version reaches any other through the hub.
 * Served at {@code /convert}; answers an {@code apiextensions.k8s.io/v1} ConversionReview, each object
 * converted to {@code desiredAPIVersion} with its metadata kept. A conversion that throws fails the
 * review with its message.
 *
 * <pre>{@code
 * Conversions.hub(FooV1.class, scheme)
 *         .spoke(Foo.class, Foo::toV1, Foo::fromV1)
 *         .registerWith(server);
 * }</pre>
 *
 * @param <H> the hub type
 */
public final class Conversions<H> {

    /** The path conversion webhooks are served on. */
    public static final String PATH = "/convert";

    private final Scheme scheme;
    private final Class<H> hub;
    private final Map<String, Class<?>> byApiVersion = new HashMap<>();
    private final Map<Class<?>, Function<Object, H>> toHub = new HashMap<>();
    private final Map<Class<?>, Function<H, Object>> fromHub = new HashMap<>();

    private Conversions(Class<H> hub, Scheme scheme) {
        this.hub = hub;
        this.scheme = scheme;
        byApiVersion.put(apiVersion(hub), hub);
    }

    /**
     * Conversions through {@code hub}.
     *
     * @throws IllegalArgumentException when {@code scheme} does not know the type
     */
    public static <H> Conversions<H> hub(Class<H> hub, Scheme scheme) {
        return new Conversions<>(Objects.requireNonNull(hub, "hub"), Objects.requireNonNull(scheme, "scheme"));
    }

    /** Adds a spoke version: how it becomes the hub and how the hub becomes it. */
    public <S> Conversions<H> spoke(Class<S> spoke, Function<S, H> up, Function<H, S> down) {
        byApiVersion.put(apiVersion(spoke), spoke);
        toHub.put(spoke, o -> up.apply(spoke.cast(o)));
        fromHub.put(spoke, h -> down.apply(h));
        return this;
    }

    private String apiVersion(Class<?> type) {
        GroupVersionKind gvk = scheme.gvkOf(type)
                .orElseThrow(() -> new IllegalArgumentException(type.getName() + " is not in the scheme"));
        return gvk.group().isEmpty() ? gvk.version() : gvk.group() + "/" + gvk.version();
    }

    /** Registers the webhook at {@link #PATH} on {@code server}. */
    public void registerWith(WebhookServer server) {
        server.register(PATH, this::review);
    }

    private JsonNode review(JsonNode review) {
        JsonNode request = review.path("request");
        String desired = request.path("desiredAPIVersion").asString("");
        ObjectNode response = KubeJson.mapper().createObjectNode();
        response.put("uid", request.path("uid").asString(""));
        ArrayNode converted = response.putArray("convertedObjects");
        try {
            for (JsonNode o : request.path("objects")) {
                converted.add(convert(o, desired));
            }
            response.putObject("result").put("status", "Success");
        } catch (RuntimeException e) {
            response.remove("convertedObjects");
            response.putArray("convertedObjects");
            response.putObject("result")
                    .put("status", "Failure")
                    .put("message", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        ObjectNode out = KubeJson.mapper().createObjectNode();
        out.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        out.set("response", response);
        return out;
    }

    private JsonNode convert(JsonNode object, String desired) {
        String from = object.path("apiVersion").asString("");
        if (from.equals(desired)) {
            return object;
        }
        Class<?> source = type(from);
        Class<?> target = type(desired);
        Object value = KubeJson.mapper().treeToValue(object, source);
        H asHub = source == hub ? hub.cast(value) : toHub.get(source).apply(value);
        Object result = target == hub ? asHub : fromHub.get(target).apply(asHub);
        ObjectNode out = KubeJson.mapper().valueToTree(result);
        out.put("apiVersion", desired);
        out.put("kind", object.path("kind").asString(""));
        out.set("metadata", object.path("metadata").deepCopy());
        return out;
    }

    private Class<?> type(String apiVersion) {
        Class<?> t = byApiVersion.get(apiVersion);
        if (t == null) {
            throw new IllegalArgumentException("no conversion for apiVersion " + apiVersion);
        }
        return t;
    }
}
