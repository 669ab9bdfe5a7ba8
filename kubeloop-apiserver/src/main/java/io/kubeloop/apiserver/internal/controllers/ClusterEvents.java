package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.time.Ticker;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The core/v1 Events the simulated cluster's components record, as their event recorders do, so that
 * {@code kubectl describe} and {@code kubectl get events} tell what happened: named {@code <object>.<hex time>},
 * with the involved object's reference, reason, message, source component (and host, for kubelets), count 1 and
 * the time. An Event that cannot be written is dropped (logged at debug): recording never fails a controller.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class ClusterEvents {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterEvents.class);

    private final ObjectRegistry registry;
    private final Ticker clock;
    private final AtomicLong last = new AtomicLong();

    ClusterEvents(ObjectRegistry registry, Ticker clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Records a {@code Normal} Event about {@code object} (of {@code apiVersion}/{@code kind}). */
    void normal(JsonNode object, String apiVersion, String kind, String component, String reason, String message) {
        record(object, apiVersion, kind, component, null, "Normal", reason, message);
    }

    /** Records a {@code Warning} Event about {@code object}. */
    void warning(JsonNode object, String apiVersion, String kind, String component, String reason, String message) {
        record(object, apiVersion, kind, component, null, "Warning", reason, message);
    }

    /** Records a {@code Normal} Event of a kubelet on {@code host} about a Pod. */
    void kubelet(JsonNode pod, String host, String reason, String message) {
        record(pod, "v1", "Pod", "kubelet", host, "Normal", reason, message);
    }

    private void record(
            JsonNode object,
            String apiVersion,
            String kind,
            String component,
            String host,
            String type,
            String reason,
            String message) {
        ResourceDefinition events =
                registry.resources().find("", "v1", "events").orElse(null);
        if (events == null) {
            return;
        }
        JsonNode meta = object.path("metadata");
        String namespace = meta.path("namespace").asString("");
        String eventNamespace = namespace.isEmpty() ? "default" : namespace;
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        long unique = last.updateAndGet(prev -> Math.max(prev + 1, nanos));
        ObjectNode event = KubeJson.mapper().createObjectNode();
        event.put("apiVersion", "v1").put("kind", "Event");
        event.putObject("metadata")
                .put("name", meta.path("name").asString() + "." + Long.toHexString(unique))
                .put("namespace", eventNamespace);
        ObjectNode involved = event.putObject("involvedObject");
        involved.put("kind", kind);
        if (!namespace.isEmpty()) {
            involved.put("namespace", namespace);
        }
        involved.put("name", meta.path("name").asString())
                .put("uid", meta.path("uid").asString())
                .put("apiVersion", apiVersion)
                .put("resourceVersion", meta.path("resourceVersion").asString(""));
        event.put("reason", reason);
        event.put("message", message);
        ObjectNode source = event.putObject("source").put("component", component);
        if (host != null) {
            source.put("host", host);
        }
        String time = WorkloadObjects.timestamp(now);
        event.put("firstTimestamp", time);
        event.put("lastTimestamp", time);
        event.put("count", 1);
        event.put("type", type);
        event.putNull("eventTime");
        event.put("reportingComponent", component);
        event.put("reportingInstance", host == null ? "" : host);
        try {
            registry.create(events, eventNamespace, event, WorkloadObjects.context(component));
        } catch (ApiException e) {
            LOG.debug(
                    "event {} about {}/{} not recorded: {}",
                    reason,
                    kind,
                    meta.path("name").asString(),
                    e.getMessage());
        }
    }
}
