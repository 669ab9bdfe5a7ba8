package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's defaulting of the workload and admission kinds (its {@code SetDefaults_*} functions), applied to every
 * object written, so that objects come back shaped as a real server's whatever wrote them:
 *
 * <ul>
 *   <li>Pod specs, in Pods and in every Pod template: {@code dnsPolicy: ClusterFirst},
 *       {@code restartPolicy: Always}, {@code terminationGracePeriodSeconds: 30},
 *       {@code schedulerName: default-scheduler}, {@code securityContext: {}}; each container's
 *       {@code terminationMessagePath}, {@code terminationMessagePolicy: File}, {@code imagePullPolicy}
 *       ({@code Always} for a {@code :latest} or untagged image, else {@code IfNotPresent}), {@code resources: {}}
 *       and its ports' {@code protocol: TCP}; a Pod's {@code enableServiceLinks: true};</li>
 *   <li>Deployments: {@code replicas: 1}, a {@code RollingUpdate} strategy of 25% surge and 25% unavailable,
 *       {@code revisionHistoryLimit: 10}, {@code progressDeadlineSeconds: 600};</li>
 *   <li>ReplicaSets: {@code replicas: 1}; StatefulSets: {@code replicas: 1}, {@code OrderedReady},
 *       a {@code RollingUpdate} strategy of partition 0, {@code revisionHistoryLimit: 10}, PVC retention
 *       {@code Retain}; DaemonSets: a {@code RollingUpdate} strategy of one unavailable and no surge,
 *       {@code revisionHistoryLimit: 10};</li>
 *   <li>Services: {@code type: ClusterIP}, {@code sessionAffinity: None}, {@code internalTrafficPolicy: Cluster},
 *       ports' {@code protocol: TCP} and {@code targetPort} (the port), {@code externalTrafficPolicy: Cluster} for
 *       node ports and load balancers (addresses come from {@link ServiceAddresses});</li>
 *   <li>Jobs: {@code parallelism} and {@code completions} 1 when neither is set, {@code backoffLimit: 6},
 *       {@code completionMode: NonIndexed}, {@code suspend: false}; CronJobs: {@code concurrencyPolicy: Allow},
 *       {@code suspend: false}, history limits 3 and 1;</li>
 *   <li>PersistentVolumeClaims: {@code volumeMode: Filesystem}; PersistentVolumes: {@code volumeMode: Filesystem},
 *       {@code persistentVolumeReclaimPolicy: Retain};</li>
 *   <li>Secrets: {@code type: Opaque}, and {@code stringData} merged into {@code data} as base64 (a key of both
 *       takes {@code stringData}'s value) and dropped, as kube-apiserver's conversion of a v1 Secret does, so
 *       that {@code stringData} is never stored nor read back;</li>
 *   <li>admission policies, their bindings and webhook configurations: {@link AdmissionRegistrationDefaults}.</li>
 * </ul>
 *
 * A field the object sets is never changed. <p>Stateless and thread-safe.
 */
public final class BuiltinDefaults {

    private BuiltinDefaults() {}

    private static void secret(ObjectNode secret) {
        if (secret.get("stringData") instanceof ObjectNode stringData) {
            ObjectNode data = object(secret, "data");
            for (var e : stringData.properties()) {
                data.put(
                        e.getKey(),
                        Base64.getEncoder()
                                .encodeToString(e.getValue().asString("").getBytes(StandardCharsets.UTF_8)));
            }
        }
        secret.remove("stringData");
        put(secret, "type", "Opaque");
    }

    /** Applies the defaults of {@code def}'s kind to {@code object}, in place. Other kinds are left alone. */
    public static void apply(ResourceDefinition def, ObjectNode object) {
        if (def.custom()) {
            return;
        }
        ObjectNode spec = object.get("spec") instanceof ObjectNode s ? s : null;
        switch (def.group() + "/" + def.plural()) {
            case "/pods" -> {
                if (spec != null) {
                    podSpec(spec);
                    put(spec, "enableServiceLinks", true);
                }
            }
            case "/persistentvolumeclaims" -> {
                if (spec != null) {
                    put(spec, "volumeMode", "Filesystem");
                }
            }
            case "/persistentvolumes" -> {
                if (spec != null) {
                    put(spec, "persistentVolumeReclaimPolicy", "Retain");
                    put(spec, "volumeMode", "Filesystem");
                }
            }
            case "apps/deployments" -> {
                if (spec != null) {
                    put(spec, "replicas", 1);
                    ObjectNode strategy = object(spec, "strategy");
                    put(strategy, "type", "RollingUpdate");
                    if (strategy.path("type").asString("").equals("RollingUpdate")) {
                        ObjectNode rolling = object(strategy, "rollingUpdate");
                        put(rolling, "maxUnavailable", "25%");
                        put(rolling, "maxSurge", "25%");
                    }
                    put(spec, "revisionHistoryLimit", 10);
                    put(spec, "progressDeadlineSeconds", 600);
                    template(spec);
                }
            }
            case "apps/replicasets" -> {
                if (spec != null) {
                    put(spec, "replicas", 1);
                    template(spec);
                }
            }
            case "apps/statefulsets" -> {
                if (spec != null) {
                    put(spec, "replicas", 1);
                    put(spec, "podManagementPolicy", "OrderedReady");
                    ObjectNode strategy = object(spec, "updateStrategy");
                    put(strategy, "type", "RollingUpdate");
                    if (strategy.path("type").asString("").equals("RollingUpdate")) {
                        put(object(strategy, "rollingUpdate"), "partition", 0);
                    }
                    put(spec, "revisionHistoryLimit", 10);
                    ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy");
                    put(retention, "whenDeleted", "Retain");
                    put(retention, "whenScaled", "Retain");
                    template(spec);
                }
            }
            case "apps/daemonsets" -> {
                if (spec != null) {
                    ObjectNode strategy = object(spec, "updateStrategy");
                    put(strategy, "type", "RollingUpdate");
                    if (strategy.path("type").asString("").equals("RollingUpdate")) {
                        ObjectNode rolling = object(strategy, "rollingUpdate");
                        put(rolling, "maxUnavailable", 1);
                        put(rolling, "maxSurge", 0);
                    }
                    put(spec, "revisionHistoryLimit", 10);
                    template(spec);
                }
            }
            case "/services" -> {
                if (spec != null) {
                    service(spec);
                }
            }
            case "/secrets" -> secret(object);
            case "batch/jobs" -> {
                if (spec != null) {
                    job(spec);
                }
            }
            case "batch/cronjobs" -> {
                if (spec != null) {
                    put(spec, "concurrencyPolicy", "Allow");
                    put(spec, "suspend", false);
                    put(spec, "successfulJobsHistoryLimit", 3);
                    put(spec, "failedJobsHistoryLimit", 1);
                    if (spec.path("jobTemplate").path("spec") instanceof ObjectNode jobSpec) {
                        job(jobSpec);
                    }
                }
            }
            case "admissionregistration.k8s.io/validatingadmissionpolicies" -> {
                if (spec != null) {
                    AdmissionRegistrationDefaults.policy(spec);
                }
            }
            case "admissionregistration.k8s.io/validatingadmissionpolicybindings" -> {
                if (spec != null) {
                    AdmissionRegistrationDefaults.binding(spec);
                }
            }
            case "admissionregistration.k8s.io/validatingwebhookconfigurations" ->
                AdmissionRegistrationDefaults.webhooks(object, false);
            case "admissionregistration.k8s.io/mutatingwebhookconfigurations" ->
                AdmissionRegistrationDefaults.webhooks(object, true);
            default -> {}
        }
    }

    private static void service(ObjectNode spec) {
        put(spec, "type", "ClusterIP");
        String type = spec.path("type").asString("");
        if (type.equals("ExternalName")) {
            return;
        }
        put(spec, "sessionAffinity", "None");
        put(spec, "internalTrafficPolicy", "Cluster");
        if (type.equals("NodePort") || type.equals("LoadBalancer")) {
            put(spec, "externalTrafficPolicy", "Cluster");
        }
        if (type.equals("LoadBalancer")) {
            put(spec, "allocateLoadBalancerNodePorts", true);
        }
        for (JsonNode p : spec.path("ports")) {
            if (p instanceof ObjectNode port) {
                put(port, "protocol", "TCP");
                if ((port.get("targetPort") == null || port.get("targetPort").isNull()) && port.has("port")) {
                    port.set("targetPort", port.get("port"));
                }
            }
        }
    }

    private static void job(ObjectNode spec) {
        if (!spec.has("parallelism") && !spec.has("completions")) {
            spec.put("parallelism", 1);
            spec.put("completions", 1);
        } else {
            put(spec, "parallelism", 1);
        }
        put(spec, "backoffLimit", 6);
        put(spec, "completionMode", "NonIndexed");
        put(spec, "suspend", false);
        template(spec);
    }

    /** The Pod template of a workload spec. */
    private static void template(ObjectNode spec) {
        if (spec.path("template").path("spec") instanceof ObjectNode podSpec) {
            podSpec(podSpec);
        }
    }

    private static void podSpec(ObjectNode spec) {
        put(spec, "dnsPolicy", "ClusterFirst");
        put(spec, "restartPolicy", "Always");
        put(spec, "terminationGracePeriodSeconds", 30);
        put(spec, "schedulerName", "default-scheduler");
        object(spec, "securityContext");
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : spec.path(list)) {
                if (c instanceof ObjectNode container) {
                    container(container);
                }
            }
        }
    }

    private static void container(ObjectNode c) {
        put(c, "terminationMessagePath", "/dev/termination-log");
        put(c, "terminationMessagePolicy", "File");
        put(c, "imagePullPolicy", pullPolicy(c.path("image").asString("")));
        object(c, "resources");
        for (JsonNode p : c.path("ports")) {
            if (p instanceof ObjectNode port) {
                put(port, "protocol", "TCP");
            }
        }
    }

    /** {@code Always} for a {@code :latest} or untagged image (a digest pins it), else {@code IfNotPresent}. */
    static String pullPolicy(String image) {
        if (image.contains("@")) {
            return "IfNotPresent";
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        if (colon <= slash) {
            return "Always";
        }
        return image.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static void put(ObjectNode o, String field, Object value) {
        JsonNode current = o.get(field);
        if (current != null && !current.isNull()) {
            return;
        }
        switch (value) {
            case Integer i -> o.put(field, i);
            case Boolean b -> o.put(field, b);
            default -> o.put(field, value.toString());
        }
    }
}
