package io.kubeloop.controller.leader;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One Lease object read and written as a {@link LeaderElectionRecord}, with optimistic concurrency:
 * an update carries the resourceVersion last read, so two candidates cannot both win one round.
 *
 * <p>Not thread-safe: used by its elector's one thread.
 */
final class LeaseLock {

    static final GroupVersionResource LEASES = new GroupVersionResource("coordination.k8s.io", "v1", "leases");
    /** MicroTime, as Kubernetes writes it. */
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    private final ResourceClient<DynamicObject> leases;
    private final String namespace;
    private final String name;
    private DynamicObject last;

    LeaseLock(KubeClient client, String namespace, String name) {
        this.leases = client.resource(LEASES, ResourceScope.NAMESPACED, DynamicObject.class)
                .inNamespace(namespace);
        this.namespace = namespace;
        this.name = name;
    }

    /**
     * Reads the Lease.
     *
     * @return its record, or empty when there is no Lease
     * @throws io.kubeloop.api.errors.ApiException for any other failure
     */
    Optional<LeaderElectionRecord> get() {
        try {
            last = leases.get(name);
        } catch (NotFoundException e) {
            last = null;
            return Optional.empty();
        }
        return Optional.of(record(last));
    }

    /** Creates the Lease with {@code record}; fails if it exists. */
    void create(LeaderElectionRecord record) {
        DynamicObject lease = DynamicObject.of("coordination.k8s.io/v1", "Lease", ObjectMeta.of(namespace, name))
                .edit(tree -> tree.set("spec", spec(record)));
        last = leases.create(lease, WriteOptions.none());
    }

    /** Replaces the spec of the Lease last read or written; fails with a conflict if it changed since. */
    void update(LeaderElectionRecord record) {
        if (last == null) {
            throw new IllegalStateException("lease " + namespace + "/" + name + " was not read before the update");
        }
        last = leases.update(last.edit(tree -> tree.set("spec", spec(record))), WriteOptions.none());
    }

    String describe() {
        return "lease " + namespace + "/" + name;
    }

    private static ObjectNode spec(LeaderElectionRecord r) {
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("holderIdentity", r.holderIdentity());
        spec.put("leaseDurationSeconds", r.leaseDurationSeconds());
        if (r.acquireTime() != null) {
            spec.put("acquireTime", MICRO_TIME.format(r.acquireTime().truncatedTo(ChronoUnit.MICROS)));
        }
        if (r.renewTime() != null) {
            spec.put("renewTime", MICRO_TIME.format(r.renewTime().truncatedTo(ChronoUnit.MICROS)));
        }
        spec.put("leaseTransitions", r.leaseTransitions());
        return spec;
    }

    static LeaderElectionRecord record(DynamicObject lease) {
        JsonNode spec = lease.node().path("spec");
        return new LeaderElectionRecord(
                spec.path("holderIdentity").asString(""),
                spec.path("leaseDurationSeconds").asInt(0),
                instant(spec.path("acquireTime")),
                instant(spec.path("renewTime")),
                spec.path("leaseTransitions").asInt(0));
    }

    private static Instant instant(JsonNode n) {
        return n.isString() && !n.asString().isEmpty() ? Instant.parse(n.asString()) : null;
    }
}
