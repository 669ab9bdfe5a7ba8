package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The addresses kube-apiserver gives Services: a cluster IP from the service range {@code 10.96.0.0/12} (the
 * first, {@code 10.96.0.1}, is the {@code kubernetes} Service's) with {@code clusterIPs}, {@code ipFamilies:
 * [IPv4]} and {@code ipFamilyPolicy: SingleStack}; a node port from 30000–32767 for each port of a
 * {@code NodePort} or {@code LoadBalancer} Service. A requested address is checked (in range, not taken). On
 * update, addresses the new object leaves out are carried over from the old one, and a changed cluster IP is a
 * 422, as on a real server. Headless ({@code clusterIP: None}) and {@code ExternalName} Services get none.
 *
 * <p><b>Thread safety.</b> Thread-safe: allocations are serialized, and each checks the stored Services and
 * the addresses it gave out that are not stored yet.
 */
public final class ServiceAddresses {

    /** The first address of the service range, {@code 10.96.0.0}, as an int. */
    private static final int RANGE_START = (10 << 24) | (96 << 16);
    /** Addresses in {@code 10.96.0.0/12}. */
    private static final int RANGE_SIZE = 1 << 20;
    /** The {@code kubernetes} Service's address. */
    static final String KUBERNETES_IP = "10.96.0.1";

    private static final int NODE_PORT_MIN = 30000;
    private static final int NODE_PORT_MAX = 32767;

    private final VersionedStore store;
    private final ReentrantLock lock = new ReentrantLock();
    /** Given out lately; guarded by {@link #lock}. Bounded: cleared when it grows past 4,096. */
    private final Set<String> recent = new HashSet<>();

    public ServiceAddresses(VersionedStore store) {
        this.store = store;
    }

    /** Fills in the addresses of a Service being created (or carried over from {@code old} on update). */
    public void assign(ResourceDefinition def, ObjectNode service, ObjectNode old) {
        if (def.custom()
                || !def.group().isEmpty()
                || !def.plural().equals("services")
                || !(service.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (old != null && old.get("spec") instanceof ObjectNode oldSpec) {
            carryOver(def, service, spec, oldSpec);
        }
        String type = spec.path("type").asString("ClusterIP");
        if (type.equals("ExternalName")) {
            return;
        }
        lock.lock();
        try {
            if (recent.size() > 4096) {
                recent.clear();
            }
            Set<String> taken = takenAddresses(service);
            String ip = spec.path("clusterIP").asString("");
            if (ip.isEmpty()) {
                ip = freeIp(taken);
            } else if (!ip.equals("None") && old == null) {
                checkRequested(def, service, ip, taken);
            }
            recent.add(ip);
            spec.put("clusterIP", ip);
            ArrayNode ips = spec.putArray("clusterIPs");
            ips.add(ip);
            if (!spec.has("ipFamilies")) {
                spec.putArray("ipFamilies").add("IPv4");
            }
            if (!spec.has("ipFamilyPolicy")) {
                spec.put("ipFamilyPolicy", "SingleStack");
            }
            if (type.equals("NodePort") || type.equals("LoadBalancer")) {
                for (JsonNode p : spec.path("ports")) {
                    if (p instanceof ObjectNode port && !port.has("nodePort")) {
                        String nodePort = freeNodePort(taken);
                        recent.add(nodePort);
                        port.put("nodePort", Integer.parseInt(nodePort.substring(5)));
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private static void carryOver(ResourceDefinition def, ObjectNode service, ObjectNode spec, ObjectNode oldSpec) {
        String before = oldSpec.path("clusterIP").asString("");
        String now = spec.path("clusterIP").asString("");
        if (!before.isEmpty() && !now.isEmpty() && !now.equals(before)) {
            throw ApiErrors.invalid(
                    def,
                    service.path("metadata").path("name").asString(""),
                    List.of(ApiErrors.FieldError.invalid("spec.clusterIPs[0]", now, "may not change once set")));
        }
        for (String field : List.of("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy")) {
            if (!spec.has(field) && oldSpec.has(field)) {
                spec.set(field, oldSpec.get(field).deepCopy());
            }
        }
        for (JsonNode p : spec.path("ports")) {
            if (p instanceof ObjectNode port && !port.has("nodePort")) {
                for (JsonNode o : oldSpec.path("ports")) {
                    if (o.path("port").equals(port.path("port")) && o.has("nodePort")) {
                        port.set("nodePort", o.get("nodePort"));
                    }
                }
            }
        }
    }

    private void checkRequested(ResourceDefinition def, ObjectNode service, String ip, Set<String> taken) {
        String why = null;
        int address = parse(ip);
        if (address == -1) {
            why = "must be a valid IP address";
        } else if (address - RANGE_START < 0 || address - RANGE_START >= RANGE_SIZE) {
            why = "failed to allocate IP " + ip + ": the provided IP (" + ip
                    + ") is not in the valid range. The range of valid IPs is 10.96.0.0/12";
        } else if (taken.contains(ip)) {
            why = "failed to allocate IP " + ip + ": provided IP is already allocated";
        }
        if (why != null) {
            throw ApiErrors.invalid(
                    def,
                    service.path("metadata").path("name").asString(""),
                    List.of(ApiErrors.FieldError.invalid(
                            "spec.clusterIPs", List.of(ip).toString(), why)));
        }
    }

    /** Cluster IPs and node ports (as {@code port:N}) of stored Services other than {@code service}, and recent ones. */
    private Set<String> takenAddresses(ObjectNode service) {
        Set<String> taken = new HashSet<>(recent);
        String self = service.path("metadata").path("namespace").asString("") + "/"
                + service.path("metadata").path("name").asString("");
        if (!self.equals("default/kubernetes")) {
            taken.add(KUBERNETES_IP);
        }
        for (StoredObject s : store.list(ListQuery.all("/services", null)).items()) {
            if ((s.namespace() + "/" + s.name()).equals(self)) {
                continue;
            }
            JsonNode spec = s.object().path("spec");
            taken.add(spec.path("clusterIP").asString(""));
            for (JsonNode p : spec.path("ports")) {
                if (p.has("nodePort")) {
                    taken.add("port:" + p.path("nodePort").asInt());
                }
            }
        }
        return taken;
    }

    private static String freeIp(Set<String> taken) {
        while (true) {
            int offset = 2 + ThreadLocalRandom.current().nextInt(RANGE_SIZE - 3);
            String ip = format(RANGE_START + offset);
            if (!taken.contains(ip)) {
                return ip;
            }
        }
    }

    private static String freeNodePort(Set<String> taken) {
        for (int i = 0; i < 10_000; i++) {
            String p = "port:" + ThreadLocalRandom.current().nextInt(NODE_PORT_MIN, NODE_PORT_MAX + 1);
            if (!taken.contains(p)) {
                return p;
            }
        }
        throw new InternalErrorException(Status.failure(
                500, "InternalError", "Internal error occurred: failed to allocate a nodePort: range is full"));
    }

    private static String format(int a) {
        return ((a >>> 24) & 255) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "." + (a & 255);
    }

    /** An IPv4 address as an int, or -1. */
    private static int parse(String ip) {
        String[] parts = ip.split("\\.", -1);
        if (parts.length != 4) {
            return -1;
        }
        int a = 0;
        for (String p : parts) {
            try {
                int v = Integer.parseInt(p);
                if (v < 0 || v > 255 || p.length() > 3) {
                    return -1;
                }
                a = (a << 8) | v;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return a == -1 ? -1 : a;
    }
}
