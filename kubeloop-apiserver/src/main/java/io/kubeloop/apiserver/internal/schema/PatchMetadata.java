package io.kubeloop.apiserver.internal.schema;

import java.util.List;
import java.util.Map;

/**
 * The strategic-merge metadata of built-in list fields, as k8s.io/api's struct tags declare it
 * ({@code patchStrategy}, {@code patchMergeKey}, {@code +listType}, {@code +listMapKey}); fabric8's
 * model does not carry it. Published in OpenAPI as {@code x-kubernetes-patch-strategy},
 * {@code x-kubernetes-patch-merge-key}, {@code x-kubernetes-list-type} and
 * {@code x-kubernetes-list-map-keys}, which is where kubectl's client-side apply reads merge keys.
 * Stateless.
 */
final class PatchMetadata {

    private record Entry(String mergeKey, String strategy, String listType, List<String> mapKeys) {}

    private static final String CORE = "io.k8s.api.core.v1.";
    private static final String APPS = "io.k8s.api.apps.v1.";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

    private static Entry map(String key, String strategy, String... mapKeys) {
        return new Entry(key, strategy, "map", List.of(mapKeys));
    }

    private static final Entry BY_NAME = map("name", "merge", "name");
    private static final Entry BY_TYPE = map("type", "merge", "type");

    private static final Map<String, Entry> ENTRIES = Map.ofEntries(
            Map.entry(CORE + "PodSpec.volumes", map("name", "merge,retainKeys", "name")),
            Map.entry(CORE + "PodSpec.initContainers", BY_NAME),
            Map.entry(CORE + "PodSpec.containers", BY_NAME),
            Map.entry(CORE + "PodSpec.ephemeralContainers", BY_NAME),
            Map.entry(CORE + "PodSpec.imagePullSecrets", BY_NAME),
            Map.entry(CORE + "PodSpec.hostAliases", map("ip", "merge", "ip")),
            Map.entry(
                    CORE + "PodSpec.topologySpreadConstraints",
                    map("topologyKey", "merge", "topologyKey", "whenUnsatisfiable")),
            Map.entry(CORE + "PodSpec.resourceClaims", map("name", "merge,retainKeys", "name")),
            Map.entry(CORE + "PodSpec.schedulingGates", BY_NAME),
            Map.entry(CORE + "Container.ports", map("containerPort", "merge", "containerPort", "protocol")),
            Map.entry(CORE + "Container.env", BY_NAME),
            Map.entry(CORE + "Container.volumeMounts", map("mountPath", "merge", "mountPath")),
            Map.entry(CORE + "Container.volumeDevices", map("devicePath", "merge", "devicePath")),
            Map.entry(CORE + "EphemeralContainer.ports", map("containerPort", "merge", "containerPort", "protocol")),
            Map.entry(CORE + "EphemeralContainer.env", BY_NAME),
            Map.entry(CORE + "EphemeralContainer.volumeMounts", map("mountPath", "merge", "mountPath")),
            Map.entry(CORE + "EphemeralContainer.volumeDevices", map("devicePath", "merge", "devicePath")),
            Map.entry(CORE + "PodStatus.conditions", BY_TYPE),
            Map.entry(CORE + "PodStatus.podIPs", map("ip", "merge", "ip")),
            Map.entry(CORE + "PodStatus.hostIPs", map("ip", "merge", "ip")),
            Map.entry(CORE + "ServiceSpec.ports", map("port", "merge", "port", "protocol")),
            Map.entry(CORE + "ServiceStatus.conditions", BY_TYPE),
            Map.entry(CORE + "ServiceAccount.secrets", BY_NAME),
            Map.entry(CORE + "NodeSpec.podCIDRs", new Entry("", "merge", "set", List.of())),
            Map.entry(CORE + "NodeStatus.conditions", BY_TYPE),
            Map.entry(CORE + "NodeStatus.addresses", BY_TYPE),
            Map.entry(CORE + "NamespaceStatus.conditions", BY_TYPE),
            Map.entry(META + "ObjectMeta.finalizers", new Entry("", "merge", "set", List.of())),
            Map.entry(META + "ObjectMeta.ownerReferences", map("uid", "merge", "uid")),
            Map.entry(APPS + "DeploymentStatus.conditions", BY_TYPE),
            Map.entry(APPS + "ReplicaSetStatus.conditions", BY_TYPE),
            Map.entry(APPS + "StatefulSetStatus.conditions", BY_TYPE),
            Map.entry(APPS + "DaemonSetStatus.conditions", BY_TYPE),
            Map.entry("io.k8s.api.batch.v1.JobStatus.conditions", new Entry("type", "merge", "atomic", List.of())),
            Map.entry("io.k8s.api.batch.v1.CronJobStatus.active", new Entry("", "", "atomic", List.of())));

    private PatchMetadata() {}

    /** Sets the patch metadata of {@code definition.property}, if it has any, on an array schema under construction. */
    static void apply(String definition, String property, StructuralSchema.Builder array) {
        Entry e = ENTRIES.get(definition + "." + property);
        if (e == null) {
            return;
        }
        array.patchMergeKey = e.mergeKey();
        array.patchStrategy = e.strategy();
        array.listType = e.listType();
        array.listMapKeys.addAll(e.mapKeys());
    }
}
