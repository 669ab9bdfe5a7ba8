package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.time.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The endpoints and EndpointSlice controllers, as kube-controller-manager's: for each Service with a selector,
 * the Pods it selects that have an IP become its Endpoints ({@code subsets}: ready Pods as {@code addresses},
 * others as {@code notReadyAddresses} unless {@code publishNotReadyAddresses}; the Service's ports with each
 * {@code targetPort} resolved, by number or by the container port's name) and one {@code IPv4}
 * EndpointSlice ({@code <service>-<random>}, labelled {@code kubernetes.io/service-name} and
 * {@code endpointslice.kubernetes.io/managed-by}, controlled by the Service) with each endpoint's
 * {@code ready}, {@code serving} and {@code terminating} conditions, node and Pod reference. Services without a
 * selector are left to their owners; a deleted Service's Endpoints go with it (its slices by garbage
 * collection).
 *
 * <p>Driven by the Service and Pod metadata informers (a Pod's change queues every Service of its namespace);
 * one worker syncs one Service at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} stops the worker and waits for it.
 */
final class EndpointsController implements AutoCloseable {

    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
    static final String MANAGED_BY = "endpointslice-controller.k8s.io";

    /** A Service to sync. */
    record Key(String namespace, String name) {}

    private final ObjectRegistry registry;
    private final QueueWorker<Key> worker;
    private volatile ResourceDefinition services;
    private volatile ResourceDefinition pods;
    private volatile ResourceDefinition endpoints;
    private volatile ResourceDefinition slices;

    EndpointsController(ObjectRegistry registry, Ticker clock, MetadataInformers informers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.worker = new QueueWorker<>("endpoints", Objects.requireNonNull(clock, "clock"), this::sync);
        informers.subscribe(this::monitor);
    }

    private void monitor(ResourceDefinition def, SharedIndexInformer<ObjectMetadata> informer) {
        if (def.group().equals("discovery.k8s.io") && def.plural().equals("endpointslices")) {
            slices = def;
        } else if (def.group().isEmpty() && def.plural().equals("endpoints")) {
            endpoints = def;
        } else if (def.group().isEmpty() && def.plural().equals("services")) {
            services = def;
            informer.addEventHandler(Handlers.queueing(
                    worker,
                    s -> Optional.of(
                            new Key(s.metadata().namespace(), s.metadata().name()))));
        } else if (def.group().isEmpty() && def.plural().equals("pods")) {
            pods = def;
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ObjectMetadata pod, boolean isInInitialList) {
                    servicesOf(pod);
                }

                @Override
                public void onUpdate(ObjectMetadata oldPod, ObjectMetadata newPod) {
                    servicesOf(newPod);
                }

                @Override
                public void onDelete(ObjectMetadata pod, boolean finalStateUnknown) {
                    servicesOf(pod);
                }
            });
        }
    }

    private void servicesOf(ObjectMetadata pod) {
        ResourceDefinition def = services;
        if (def == null) {
            return;
        }
        for (StoredObject s : WorkloadObjects.list(registry, def, pod.metadata().namespace())) {
            if (s.object().path("spec").path("selector").isObject()) {
                worker.queue().add(new Key(s.namespace(), s.name()));
            }
        }
    }

    void start() {
        worker.start();
    }

    private void sync(Key key) {
        if (services == null || pods == null || endpoints == null || slices == null) {
            return;
        }
        worker.retrying(key, () -> {
            Optional<StoredObject> service = WorkloadObjects.get(registry, services, key.namespace(), key.name());
            if (service.isEmpty()) {
                deleteEndpoints(key);
                return;
            }
            JsonNode svc = service.get().object();
            JsonNode selector = svc.path("spec").path("selector");
            if (!selector.isObject() || selector.isEmpty() || WorkloadObjects.deleting(svc)) {
                return;
            }
            Map<String, String> wanted = new LinkedHashMap<>();
            selector.properties()
                    .forEach(e -> wanted.put(e.getKey(), e.getValue().asString("")));
            LabelSelector match = LabelSelector.matchingLabels(wanted);
            List<JsonNode> selected = new ArrayList<>();
            for (StoredObject p : WorkloadObjects.list(registry, pods, key.namespace())) {
                JsonNode pod = p.object();
                String phase = pod.path("status").path("phase").asString("");
                if (match.matches(WorkloadObjects.labels(pod))
                        && !pod.path("status").path("podIP").asString("").isEmpty()
                        && !phase.equals("Succeeded")
                        && !phase.equals("Failed")) {
                    selected.add(pod);
                }
            }
            selected.sort(
                    Comparator.comparing(p -> p.path("metadata").path("name").asString("")));
            writeEndpoints(key, svc, selected);
            writeSlice(key, svc, selected);
        });
    }

    /** A Service port's target on {@code pod}: the number, or the container port of that name (absent: none). */
    private static Optional<Integer> targetPort(JsonNode servicePort, JsonNode pod) {
        JsonNode target = servicePort.path("targetPort");
        if (target.isNumber()) {
            return Optional.of(target.asInt());
        }
        String name = target.asString("");
        if (name.isEmpty()) {
            return Optional.of(servicePort.path("port").asInt());
        }
        try {
            return Optional.of(Integer.parseInt(name));
        } catch (NumberFormatException e) {
            // a named port
        }
        for (JsonNode c : pod.path("spec").path("containers")) {
            for (JsonNode p : c.path("ports")) {
                if (p.path("name").asString("").equals(name)) {
                    return Optional.of(p.path("containerPort").asInt());
                }
            }
        }
        return Optional.empty();
    }

    private static ArrayNode ports(JsonNode svc, JsonNode pod) {
        ArrayNode out = KubeJson.mapper().createArrayNode();
        for (JsonNode sp : svc.path("spec").path("ports")) {
            Optional<Integer> port = targetPort(sp, pod);
            if (port.isEmpty()) {
                continue;
            }
            ObjectNode p = out.addObject();
            if (!sp.path("name").asString("").isEmpty()) {
                p.put("name", sp.path("name").asString());
            }
            p.put("port", port.get());
            p.put("protocol", sp.path("protocol").asString("TCP"));
            if (sp.has("appProtocol")) {
                p.set("appProtocol", sp.get("appProtocol"));
            }
        }
        return out;
    }

    private static ObjectNode targetRef(JsonNode pod) {
        ObjectNode ref = KubeJson.mapper().createObjectNode();
        ref.put("kind", "Pod");
        ref.put("namespace", pod.path("metadata").path("namespace").asString());
        ref.put("name", pod.path("metadata").path("name").asString());
        ref.put("uid", pod.path("metadata").path("uid").asString());
        return ref;
    }

    private void writeEndpoints(Key key, JsonNode svc, List<JsonNode> selected) {
        boolean publishNotReady =
                svc.path("spec").path("publishNotReadyAddresses").asBoolean(false);
        // one subset per distinct port list: its ready addresses, then the others, then the ports (Go's order)
        Map<String, ArrayNode[]> grouped = new LinkedHashMap<>();
        for (JsonNode pod : selected) {
            if (WorkloadObjects.deleting(pod) && !publishNotReady) {
                continue;
            }
            ArrayNode ports = ports(svc, pod);
            ArrayNode[] lists = grouped.computeIfAbsent(ports.toString(), k -> new ArrayNode[] {
                KubeJson.mapper().createArrayNode(), KubeJson.mapper().createArrayNode(), ports
            });
            ObjectNode address = (publishNotReady || WorkloadObjects.ready(pod) ? lists[0] : lists[1]).addObject();
            address.put("ip", pod.path("status").path("podIP").asString());
            if (!pod.path("spec").path("nodeName").asString("").isEmpty()) {
                address.put("nodeName", pod.path("spec").path("nodeName").asString());
            }
            address.set("targetRef", targetRef(pod));
        }
        List<ObjectNode> subsets = new ArrayList<>();
        for (ArrayNode[] lists : grouped.values()) {
            ObjectNode subset = KubeJson.mapper().createObjectNode();
            if (!lists[0].isEmpty()) {
                subset.set("addresses", lists[0]);
            }
            if (!lists[1].isEmpty()) {
                subset.set("notReadyAddresses", lists[1]);
            }
            if (!lists[2].isEmpty()) {
                subset.set("ports", lists[2]);
            }
            subsets.add(subset);
        }
        ObjectNode ep = KubeJson.mapper().createObjectNode();
        ep.put("apiVersion", "v1").put("kind", "Endpoints");
        ObjectNode meta = ep.putObject("metadata");
        meta.put("name", key.name()).put("namespace", key.namespace());
        if (svc.path("metadata").path("labels").isObject()
                && !svc.path("metadata").path("labels").isEmpty()) {
            meta.set("labels", svc.path("metadata").path("labels").deepCopy());
        }
        if (!subsets.isEmpty()) {
            ArrayNode list = ep.putArray("subsets");
            subsets.forEach(list::add);
        }
        Optional<StoredObject> current = WorkloadObjects.get(registry, endpoints, key.namespace(), key.name());
        if (current.isEmpty()) {
            registry.create(endpoints, key.namespace(), ep, WorkloadObjects.context("kube-controller-manager"));
            return;
        }
        JsonNode have = current.get().object();
        if (Objects.equals(have.path("subsets"), ep.path("subsets"))
                && Objects.equals(
                        have.path("metadata").path("labels"),
                        ep.path("metadata").path("labels"))) {
            return;
        }
        ObjectNode next = WorkloadObjects.copy(have);
        if (ep.has("subsets")) {
            next.set("subsets", ep.get("subsets"));
        } else {
            next.remove("subsets");
        }
        ObjectNode nextMeta = (ObjectNode) next.get("metadata");
        if (meta.has("labels")) {
            nextMeta.set("labels", meta.get("labels"));
        } else {
            nextMeta.remove("labels");
        }
        registry.update(
                endpoints, key.namespace(), key.name(), "", next, WorkloadObjects.context("kube-controller-manager"));
    }

    private void writeSlice(Key key, JsonNode svc, List<JsonNode> selected) {
        ArrayNode eps = KubeJson.mapper().createArrayNode();
        ArrayNode ports = null;
        for (JsonNode pod : selected) {
            boolean terminating = WorkloadObjects.deleting(pod);
            boolean ready = WorkloadObjects.ready(pod);
            ObjectNode e = eps.addObject();
            e.putArray("addresses").add(pod.path("status").path("podIP").asString());
            e.putObject("conditions")
                    .put("ready", ready && !terminating)
                    .put("serving", ready)
                    .put("terminating", terminating);
            e.set("targetRef", targetRef(pod));
            if (!pod.path("spec").path("nodeName").asString("").isEmpty()) {
                e.put("nodeName", pod.path("spec").path("nodeName").asString());
            }
            if (ports == null) {
                ports = ports(svc, pod);
            }
        }
        String uid = svc.path("metadata").path("uid").asString();
        List<StoredObject> mine = WorkloadObjects.list(registry, slices, key.namespace()).stream()
                .filter(s -> WorkloadObjects.controlledBy(s.object(), uid))
                .toList();
        ObjectNode labels = svc.path("metadata").path("labels").isObject()
                ? WorkloadObjects.copy(svc.path("metadata").path("labels"))
                : KubeJson.mapper().createObjectNode();
        labels.put(SERVICE_NAME_LABEL, key.name());
        labels.put(MANAGED_BY_LABEL, MANAGED_BY);
        if (mine.isEmpty()) {
            ObjectNode slice = KubeJson.mapper().createObjectNode();
            slice.put("apiVersion", "discovery.k8s.io/v1").put("kind", "EndpointSlice");
            ObjectNode meta = slice.putObject("metadata");
            meta.put("generateName", key.name() + "-").put("namespace", key.namespace());
            meta.set("labels", labels);
            meta.putArray("ownerReferences").add(WorkloadObjects.controllerReference("v1", "Service", svc));
            slice.put("addressType", "IPv4");
            slice.set("endpoints", eps);
            slice.set("ports", ports == null ? KubeJson.mapper().createArrayNode() : ports);
            registry.create(slices, key.namespace(), slice, WorkloadObjects.context("kube-controller-manager"));
            return;
        }
        JsonNode have = mine.getFirst().object();
        for (StoredObject extra : mine.subList(1, mine.size())) {
            registry.delete(
                    slices,
                    key.namespace(),
                    extra.name(),
                    DeleteParams.none(),
                    WorkloadObjects.context("kube-controller-manager"));
        }
        JsonNode wantedPorts = ports == null ? have.path("ports") : ports;
        if (Objects.equals(have.path("endpoints"), eps)
                && Objects.equals(have.path("ports"), wantedPorts)
                && Objects.equals(have.path("metadata").path("labels"), labels)) {
            return;
        }
        ObjectNode next = WorkloadObjects.copy(have);
        next.set("endpoints", eps);
        next.set("ports", wantedPorts.isMissingNode() ? KubeJson.mapper().createArrayNode() : wantedPorts);
        ((ObjectNode) next.get("metadata")).set("labels", labels);
        registry.update(
                slices,
                key.namespace(),
                have.path("metadata").path("name").asString(),
                "",
                next,
                WorkloadObjects.context("kube-controller-manager"));
    }

    private void deleteEndpoints(Key key) {
        if (WorkloadObjects.get(registry, endpoints, key.namespace(), key.name())
                .isPresent()) {
            registry.delete(
                    endpoints,
                    key.namespace(),
                    key.name(),
                    DeleteParams.none(),
                    WorkloadObjects.context("kube-controller-manager"));
        }
    }

    /** Stops the worker and waits for it. */
    @Override
    public void close() {
        worker.close();
    }
}
