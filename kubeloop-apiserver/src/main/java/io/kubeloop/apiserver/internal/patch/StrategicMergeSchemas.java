package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.GroupVersionKind;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The {@link StrategicMergeSchema}s of the built-in kinds the embedded server serves, transcribed from
 * the {@code patchStrategy}/{@code patchMergeKey} tags and {@code +listType}/{@code +listMapKey}/
 * {@code +structType}/{@code +mapType} markers of k8s.io/api v0.35 ({@code core/v1}, {@code apps/v1},
 * {@code batch/v1}, {@code coordination/v1}, {@code events/v1}) and apimachinery's {@code ObjectMeta}.
 *
 * <p>Covered: Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, Service, ConfigMap,
 * Secret, ServiceAccount, Namespace, Node, Endpoints, Event (core and events.k8s.io), Lease,
 * CustomResourceDefinition. Among the merge keys: containers, initContainers, ephemeralContainers,
 * volumes (with retainKeys), imagePullSecrets, schedulingGates, resourceClaims and env by
 * {@code name}; container ports by {@code containerPort} (apply: plus {@code protocol}, default TCP);
 * Service ports by {@code port} (apply: plus {@code protocol}); volumeMounts by {@code mountPath};
 * volumeDevices by {@code devicePath}; hostAliases and podIPs by {@code ip}; topologySpreadConstraints
 * by {@code topologyKey} (apply: plus {@code whenUnsatisfiable}); ownerReferences by {@code uid};
 * conditions by {@code type} (a CustomResourceDefinition's are replaced by a strategic merge patch, as
 * apiextensions tags them); finalizers and Node podCIDRs as merged sets. Tolerations, envFrom,
 * command, args, Namespace {@code spec.finalizers}, ServiceAccount imagePullSecrets, Endpoints subsets
 * and label selectors are atomic (replaced by a strategic merge patch).
 *
 * <p>The other built-in kinds get theirs from the release's OpenAPI ({@link OpenApiMergeSchemas}), which
 * says less: not which Go fields are always serialized, nor the defaults of list-map keys. A test checks
 * every fact here against the extensions of the release's own OpenAPI
 * ({@code x-kubernetes-patch-*}, {@code x-kubernetes-list-*}, {@code x-kubernetes-map-type}).
 *
 * <p>Stateless and thread-safe.
 */
public final class StrategicMergeSchemas {

    private static final StrategicMergeSchema E = StrategicMergeSchema.EMPTY;
    private static final JsonNode TCP = Json.NODES.stringNode("TCP");

    private static final StrategicMergeSchema STRING_MAP = b().mapOf(E).build();
    private static final StrategicMergeSchema ATOMIC_MAP = b().mapOf(E).atomic().build();
    private static final StrategicMergeSchema ATOMIC = b().atomic().build();

    private static final StrategicMergeSchema META = b().alwaysPresent()
            .field("labels", STRING_MAP)
            .field("annotations", STRING_MAP)
            .field("ownerReferences", b().mergeBy("uid").listMap("uid").atomic().build())
            .field("finalizers", b().mergeBy("").listSet().build())
            .build();

    private static final StrategicMergeSchema CONTAINER = container();
    private static final StrategicMergeSchema POD_SPEC = podSpec();
    private static final StrategicMergeSchema POD_STATUS = b().alwaysPresent()
            .field("conditions", byType())
            .field("hostIPs", b().mergeBy("ip").build())
            .field("podIPs", b().mergeBy("ip").listMap("ip").build())
            .field(
                    "resourceClaimStatuses",
                    b().mergeBy("name").retainKeys().listMap("name").build())
            .build();
    private static final StrategicMergeSchema POD_TEMPLATE =
            b().alwaysPresent().field("metadata", META).field("spec", POD_SPEC).build();

    private static final StrategicMergeSchema CONDITIONS_STATUS =
            b().alwaysPresent().field("conditions", byType()).build();

    private static final StrategicMergeSchema JOB_SPEC = b().alwaysPresent()
            .field("selector", ATOMIC)
            .field("template", POD_TEMPLATE)
            .build();

    private static final Map<GroupVersionKind, StrategicMergeSchema> SCHEMAS = Map.ofEntries(
            Map.entry(gvk("v1", "Pod"), top(POD_SPEC, POD_STATUS)),
            Map.entry(
                    gvk("v1", "PodTemplate"),
                    b().field("metadata", META).field("template", POD_TEMPLATE).build()),
            Map.entry(
                    gvk("apps/v1", "Deployment"),
                    top(
                            b().alwaysPresent()
                                    .field("selector", ATOMIC)
                                    .field("template", POD_TEMPLATE)
                                    .field(
                                            "strategy",
                                            b().alwaysPresent().retainKeys().build())
                                    .build(),
                            CONDITIONS_STATUS)),
            Map.entry(
                    gvk("apps/v1", "ReplicaSet"),
                    top(
                            b().alwaysPresent()
                                    .field("selector", ATOMIC)
                                    .field("template", POD_TEMPLATE)
                                    .build(),
                            CONDITIONS_STATUS)),
            Map.entry(
                    gvk("apps/v1", "StatefulSet"),
                    top(
                            b().alwaysPresent()
                                    .field("selector", ATOMIC)
                                    .field("template", POD_TEMPLATE)
                                    .field("updateStrategy", b().alwaysPresent().build())
                                    .build(),
                            CONDITIONS_STATUS)),
            Map.entry(
                    gvk("apps/v1", "DaemonSet"),
                    top(
                            b().alwaysPresent()
                                    .field("selector", ATOMIC)
                                    .field("template", POD_TEMPLATE)
                                    .field("updateStrategy", b().alwaysPresent().build())
                                    .build(),
                            CONDITIONS_STATUS)),
            Map.entry(
                    gvk("batch/v1", "Job"),
                    top(
                            JOB_SPEC,
                            b().alwaysPresent()
                                    .field("conditions", b().mergeBy("type").build())
                                    .field(
                                            "uncountedTerminatedPods",
                                            b().field("succeeded", b().listSet().build())
                                                    .field(
                                                            "failed",
                                                            b().listSet().build())
                                                    .build())
                                    .build())),
            Map.entry(
                    gvk("batch/v1", "CronJob"),
                    top(
                            b().alwaysPresent()
                                    .field(
                                            "jobTemplate",
                                            b().alwaysPresent()
                                                    .field("metadata", META)
                                                    .field("spec", JOB_SPEC)
                                                    .build())
                                    .build(),
                            b().alwaysPresent().build())),
            Map.entry(
                    gvk("v1", "Service"),
                    top(
                            b().alwaysPresent()
                                    .field(
                                            "ports",
                                            b().mergeBy("port")
                                                    .listMap("port", "protocol")
                                                    .keyDefault("protocol", TCP)
                                                    .build())
                                    .field("selector", ATOMIC_MAP)
                                    .build(),
                            CONDITIONS_STATUS)),
            Map.entry(
                    gvk("v1", "ConfigMap"),
                    b().field("metadata", META)
                            .field("data", STRING_MAP)
                            .field("binaryData", STRING_MAP)
                            .build()),
            Map.entry(
                    gvk("v1", "Secret"),
                    b().field("metadata", META)
                            .field("data", STRING_MAP)
                            .field("stringData", STRING_MAP)
                            .build()),
            Map.entry(
                    gvk("v1", "ServiceAccount"),
                    b().field("metadata", META)
                            .field(
                                    "secrets",
                                    b().mergeBy("name").listMap("name").atomic().build())
                            .build()),
            Map.entry(gvk("v1", "Namespace"), top(b().alwaysPresent().build(), CONDITIONS_STATUS)),
            Map.entry(
                    gvk("v1", "Node"),
                    top(
                            b().alwaysPresent()
                                    .field("podCIDRs", b().mergeBy("").listSet().build())
                                    .field(
                                            "configSource",
                                            b().field("configMap", b().build()).build())
                                    .build(),
                            b().alwaysPresent()
                                    .field("conditions", byType())
                                    .field("addresses", byType())
                                    .field("capacity", STRING_MAP)
                                    .field("allocatable", STRING_MAP)
                                    .field(
                                            "daemonEndpoints",
                                            b().alwaysPresent().build())
                                    .field("nodeInfo", b().alwaysPresent().build())
                                    .build())),
            Map.entry(gvk("v1", "Endpoints"), b().field("metadata", META).build()),
            Map.entry(
                    gvk("v1", "Event"),
                    b().field("metadata", META)
                            .field(
                                    "involvedObject",
                                    b().alwaysPresent().atomic().build())
                            .field("related", ATOMIC)
                            .field("source", b().alwaysPresent().build())
                            .build()),
            Map.entry(
                    gvk("events.k8s.io/v1", "Event"),
                    b().field("metadata", META)
                            .field("regarding", b().alwaysPresent().atomic().build())
                            .field("related", ATOMIC)
                            .build()),
            Map.entry(
                    gvk("coordination.k8s.io/v1", "Lease"),
                    top(b().alwaysPresent().build(), null)),
            Map.entry(
                    gvk("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
                    top(
                            b().alwaysPresent()
                                    .field("names", b().alwaysPresent().build())
                                    .build(),
                            // apiextensions' conditions are a list map without a patch strategy
                            b().alwaysPresent()
                                    .field("conditions", b().listMap("type").build())
                                    .build())));

    private static final StrategicMergeSchema CUSTOM_RESOURCE =
            b().field("metadata", META).build();

    private StrategicMergeSchemas() {}

    /**
     * The schema of a built-in kind: the hand-written one of this table, else the one the release's OpenAPI
     * gives ({@link OpenApiMergeSchemas}); empty for kinds without one (custom resources).
     */
    public static Optional<StrategicMergeSchema> forKind(GroupVersionKind gvk) {
        StrategicMergeSchema written = SCHEMAS.get(gvk);
        return written != null ? Optional.of(written) : OpenApiMergeSchemas.forKind(gvk);
    }

    /** The schema of a built-in kind given as {@code apiVersion} and {@code kind}. */
    public static Optional<StrategicMergeSchema> forKind(String apiVersion, String kind) {
        return forKind(GroupVersionKind.of(apiVersion, kind));
    }

    /** The kinds with a hand-written schema here. */
    public static Set<GroupVersionKind> kinds() {
        return SCHEMAS.keySet();
    }

    /**
     * The schema server-side apply uses for a custom resource without list-type markers:
     * {@code metadata} as for every object, everything else granular objects and atomic lists.
     * (Strategic merge patch is not available for custom resources: the server answers 415.)
     */
    public static StrategicMergeSchema customResource() {
        return CUSTOM_RESOURCE;
    }

    /** The schema of {@code metadata} (labels, annotations, ownerReferences by uid, finalizers as a set). */
    public static StrategicMergeSchema objectMeta() {
        return META;
    }

    private static GroupVersionKind gvk(String apiVersion, String kind) {
        return GroupVersionKind.of(apiVersion, kind);
    }

    private static StrategicMergeSchema.Builder b() {
        return StrategicMergeSchema.builder();
    }

    private static StrategicMergeSchema top(StrategicMergeSchema spec, StrategicMergeSchema status) {
        StrategicMergeSchema.Builder top = b().field("metadata", META).field("spec", spec);
        if (status != null) {
            top.field("status", status);
        }
        return top.build();
    }

    private static StrategicMergeSchema byType() {
        return b().mergeBy("type").listMap("type").build();
    }

    private static StrategicMergeSchema container() {
        StrategicMergeSchema ref = ATOMIC;
        return b().field(
                        "ports",
                        b().mergeBy("containerPort")
                                .listMap("containerPort", "protocol")
                                .keyDefault("protocol", TCP)
                                .build())
                .field(
                        "env",
                        b().mergeBy("name")
                                .listMap("name")
                                .field(
                                        "valueFrom",
                                        b().field("fieldRef", ref)
                                                .field("resourceFieldRef", ref)
                                                .field("configMapKeyRef", ref)
                                                .field("secretKeyRef", ref)
                                                .build())
                                .build())
                .field(
                        "volumeMounts",
                        b().mergeBy("mountPath").listMap("mountPath").build())
                .field(
                        "volumeDevices",
                        b().mergeBy("devicePath").listMap("devicePath").build())
                .field(
                        "resources",
                        b().alwaysPresent()
                                .field("limits", STRING_MAP)
                                .field("requests", STRING_MAP)
                                .field("claims", b().listMap("name").build())
                                .build())
                .build();
    }

    private static StrategicMergeSchema podSpec() {
        StrategicMergeSchema containers =
                b().fieldsOf(CONTAINER).mergeBy("name").listMap("name").build();
        return b().alwaysPresent()
                .field("containers", containers.toBuilder().alwaysPresent().build())
                .field("initContainers", containers)
                .field("ephemeralContainers", containers)
                .field(
                        "volumes",
                        b().mergeBy("name").retainKeys().listMap("name").build())
                .field("nodeSelector", ATOMIC_MAP)
                .field(
                        "imagePullSecrets",
                        b().mergeBy("name").listMap("name").atomic().build())
                .field("hostAliases", b().mergeBy("ip").listMap("ip").build())
                .field(
                        "topologySpreadConstraints",
                        b().mergeBy("topologyKey")
                                .listMap("topologyKey", "whenUnsatisfiable")
                                .field("labelSelector", ATOMIC)
                                .build())
                .field("schedulingGates", b().mergeBy("name").listMap("name").build())
                .field(
                        "resourceClaims",
                        b().mergeBy("name").retainKeys().listMap("name").build())
                .field("overhead", STRING_MAP)
                .field(
                        "affinity",
                        b().field(
                                        "nodeAffinity",
                                        b().field("requiredDuringSchedulingIgnoredDuringExecution", ATOMIC)
                                                .build())
                                .build())
                .build();
    }
}
