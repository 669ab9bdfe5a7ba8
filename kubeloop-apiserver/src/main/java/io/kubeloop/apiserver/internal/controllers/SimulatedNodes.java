package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.schema.KubernetesRelease;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulated Nodes: {@code kubeloop-node-1} … {@code kubeloop-node-N}, registered as kubelets register
 * theirs (labels {@code kubernetes.io/hostname}, {@code kubernetes.io/os}, {@code kubernetes.io/arch}; a
 * Pod CIDR {@code 10.244.(i-1).0/24}; capacity and allocatable; {@code Ready} and the pressure conditions;
 * an InternalIP {@code 172.18.0.(i+1)}; node info). Nodes already stored (a restarted server with a data
 * directory) are kept as they are. Every simulated Node carries the annotation {@value #SIMULATED}: the
 * {@link SimulatedKubelet} runs the Pods bound to those, and leaves others alone.
 *
 * <p>Stateless after {@link #register}; thread-safe.
 */
final class SimulatedNodes {

    /** The annotation that marks a Node as one the embedded server simulates. */
    static final String SIMULATED = "kubeloop.io/simulated-node";

    private final ObjectRegistry registry;
    private final Ticker clock;

    SimulatedNodes(ObjectRegistry registry, Ticker clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The name of the {@code i}-th Node (from 1). */
    static String name(int i) {
        return "kubeloop-node-" + i;
    }

    /** True when {@code node} is one of the simulated Nodes. */
    static boolean simulated(JsonNode node) {
        return node.path("metadata")
                .path("annotations")
                .path(SIMULATED)
                .asString("")
                .equals("true");
    }

    /** Registers Nodes 1..{@code count} that are not stored yet; returns the names of all of them. */
    List<String> register(int count) {
        ResourceDefinition nodes = registry.resources().find("", "v1", "nodes").orElseThrow();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String name = name(i);
            names.add(name);
            if (WorkloadObjects.get(registry, nodes, "", name).isPresent()) {
                continue;
            }
            try {
                StoredObject created = registry.create(nodes, "", node(i), WorkloadObjects.context("kubelet"))
                        .object();
                ObjectNode withStatus = created.object().deepCopy();
                withStatus.set("status", status(i));
                registry.update(nodes, "", name, "status", withStatus, WorkloadObjects.context("kubelet"));
            } catch (AlreadyExistsException e) {
                // registered meanwhile
            }
        }
        return names;
    }

    private static ObjectNode node(int i) {
        ObjectNode node = KubeJson.mapper().createObjectNode();
        node.put("apiVersion", "v1").put("kind", "Node");
        ObjectNode meta = node.putObject("metadata");
        meta.put("name", name(i));
        meta.putObject("labels")
                .put("beta.kubernetes.io/arch", "amd64")
                .put("beta.kubernetes.io/os", "linux")
                .put("kubernetes.io/arch", "amd64")
                .put("kubernetes.io/hostname", name(i))
                .put("kubernetes.io/os", "linux");
        meta.putObject("annotations")
                .put(SIMULATED, "true")
                .put("node.alpha.kubernetes.io/ttl", "0")
                .put("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        ObjectNode spec = node.putObject("spec");
        String cidr = podCidrPrefix(i) + "0/24";
        spec.put("podCIDR", cidr);
        spec.putArray("podCIDRs").add(cidr);
        spec.put("providerID", "kubeloop://" + name(i));
        return node;
    }

    /** The first three octets (with the dot) of the {@code i}-th Node's Pod CIDR. */
    static String podCidrPrefix(int i) {
        return "10.244." + (i - 1) + ".";
    }

    /** The InternalIP of the {@code i}-th Node. */
    static String internalIp(int i) {
        return "172.18.0." + (i + 1);
    }

    private ObjectNode status(int i) {
        String now = WorkloadObjects.timestamp(clock.instant());
        ObjectNode status = KubeJson.mapper().createObjectNode();
        ObjectNode capacity = status.putObject("capacity");
        capacity.put("cpu", "8")
                .put("ephemeral-storage", "104857600Ki")
                .put("hugepages-1Gi", "0")
                .put("hugepages-2Mi", "0")
                .put("memory", "32Gi")
                .put("pods", "110");
        status.set("allocatable", capacity.deepCopy());
        ArrayNode conditions = status.putArray("conditions");
        condition(
                conditions,
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                now);
        condition(conditions, "DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now);
        condition(
                conditions,
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
                now);
        condition(conditions, "Ready", "True", "KubeletReady", "kubelet is posting ready status", now);
        ArrayNode addresses = status.putArray("addresses");
        addresses.addObject().put("type", "InternalIP").put("address", internalIp(i));
        addresses.addObject().put("type", "Hostname").put("address", name(i));
        status.putObject("daemonEndpoints").putObject("kubeletEndpoint").put("Port", 10250);
        String id =
                UUID.nameUUIDFromBytes(name(i).getBytes(StandardCharsets.UTF_8)).toString();
        status.putObject("nodeInfo")
                .put("architecture", "amd64")
                .put("bootID", id)
                .put("containerRuntimeVersion", "kubeloop://simulated")
                .put("kernelVersion", "6.1.0-kubeloop")
                .put("kubeProxyVersion", KubernetesRelease.tag())
                .put("kubeletVersion", KubernetesRelease.tag())
                .put("machineID", id.replace("-", ""))
                .put("operatingSystem", "linux")
                .put("osImage", "kubeloop simulated node")
                .put("systemUUID", id);
        return status;
    }

    private static void condition(
            ArrayNode conditions, String type, String status, String reason, String message, String now) {
        conditions
                .addObject()
                .put("type", type)
                .put("status", status)
                .put("lastHeartbeatTime", now)
                .put("lastTransitionTime", now)
                .put("reason", reason)
                .put("message", message);
    }
}
