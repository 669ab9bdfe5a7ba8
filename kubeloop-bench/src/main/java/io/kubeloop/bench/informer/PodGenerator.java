package io.kubeloop.bench.informer;

import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Deterministic, realistic Pods for the informer benchmark: the shape a Deployment's Pod has on a
 * real cluster, about 3.9 KB of compact JSON each — metadata with labels, annotations, an owner
 * reference and two {@code managedFields} entries (controller-manager and kubelet), two containers
 * (the app with env, a port, resources and probes; a sidecar), a volume, a toleration, and a running
 * status with four conditions and two container statuses.
 *
 * <p>Pod {@code i} is always the same object (apart from the resourceVersion the server stamps):
 * names, UIDs, IPs and timestamps are derived from {@code i}. Pods are spread over
 * {@link #NAMESPACES} namespaces {@code bench-0 … bench-19}.
 *
 * <p>Stateless and thread-safe.
 */
public final class PodGenerator {

    /** Number of namespaces the pods are spread over. */
    public static final int NAMESPACES = 20;

    private static final Instant EPOCH = Instant.parse("2025-03-01T08:00:00Z");
    private static final String[] APPS = {"checkout", "cart", "catalog", "payments", "search", "frontend", "auth"};

    private PodGenerator() {}

    /** The namespace of pod {@code i}. */
    public static String namespace(int i) {
        return "bench-" + (i % NAMESPACES);
    }

    /** The name of pod {@code i}. */
    public static String name(int i) {
        return APPS[i % APPS.length] + "-" + hash(i / 3, 10) + "-" + hash(i, 5);
    }

    /** The store key ({@code namespace/name}) of pod {@code i}. */
    public static String key(int i) {
        return namespace(i) + "/" + name(i);
    }

    /** Pods {@code 0..pods-1} as compact JSON, for the decoding measurements; prints their average size. */
    public static byte[][] jsonBytes(int pods) {
        byte[][] bytes = new byte[pods][];
        long total = 0;
        for (int i = 0; i < pods; i++) {
            bytes[i] = io.kubeloop.api.json.KubeJson.mapper().writeValueAsBytes(pod(i));
            total += bytes[i].length;
        }
        System.out.printf(java.util.Locale.ROOT, "%d pods, %.0f bytes each%n", pods, (double) total / pods);
        return bytes;
    }

    /** Pod {@code i} as a fresh JSON tree without a resourceVersion. */
    public static ObjectNode pod(int i) {
        String app = APPS[i % APPS.length];
        String rsHash = hash(i / 3, 10);
        Instant created = EPOCH.plusSeconds(i);
        String ts = created.toString();
        String started = created.plusSeconds(4).toString();
        String ready = created.plusSeconds(19).toString();
        int containers = 2;

        ObjectNode pod = KubeJson.mapper().createObjectNode();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name(i));
        meta.put("generateName", app + "-" + rsHash + "-");
        meta.put("namespace", namespace(i));
        meta.put("uid", uid(i, 0));
        meta.put("creationTimestamp", ts);
        ObjectNode labels = meta.putObject("labels");
        labels.put("app.kubernetes.io/name", app);
        labels.put("pod-template-hash", rsHash);
        labels.put("tier", i % 2 == 0 ? "backend" : "frontend");
        labels.put("version", "v1." + (i % 9));
        ObjectNode annotations = meta.putObject("annotations");
        annotations.put("prometheus.io/scrape", "true");
        ObjectNode owner = meta.putArray("ownerReferences").addObject();
        owner.put("apiVersion", "apps/v1");
        owner.put("kind", "ReplicaSet");
        owner.put("name", app + "-" + rsHash);
        owner.put("uid", uid(i / 3, 1));
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        ArrayNode managed = meta.putArray("managedFields");
        managedSpec(managed.addObject(), ts, app, containers, uid(i / 3, 1));
        managedStatus(managed.addObject(), ready);

        ObjectNode spec = pod.putObject("spec");
        ObjectNode vol = spec.putArray("volumes").addObject();
        vol.put("name", "kube-api-access-" + hash(i, 5));
        ObjectNode projected = vol.putObject("projected");
        projected.put("defaultMode", 420);
        projected
                .putArray("sources")
                .addObject()
                .putObject("serviceAccountToken")
                .put("path", "token");
        ArrayNode cs = spec.putArray("containers");
        for (int c = 0; c < containers; c++) {
            container(cs.addObject(), app, c, i);
        }
        spec.put("restartPolicy", "Always");
        spec.put("terminationGracePeriodSeconds", 30);
        spec.put("dnsPolicy", "ClusterFirst");
        spec.put("serviceAccountName", app);
        spec.put("nodeName", "node-" + (i % 97));
        spec.put("schedulerName", "default-scheduler");
        ArrayNode tolerations = spec.putArray("tolerations");
        for (String t : new String[] {"node.kubernetes.io/not-ready"}) {
            tolerations
                    .addObject()
                    .put("key", t)
                    .put("operator", "Exists")
                    .put("effect", "NoExecute")
                    .put("tolerationSeconds", 300);
        }

        ObjectNode status = pod.putObject("status");
        status.put("phase", "Running");
        ArrayNode conditions = status.putArray("conditions");
        for (String type : new String[] {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
            conditions
                    .addObject()
                    .put("type", type)
                    .put("status", "True")
                    .put("lastTransitionTime", type.equals("PodScheduled") ? ts : ready);
        }
        status.put("hostIP", "10.0." + (i % 97) + ".10");
        String ip = "10.244." + (i / 250 % 256) + "." + (i % 250 + 2);
        status.put("podIP", ip);
        status.put("startTime", ts);
        ArrayNode statuses = status.putArray("containerStatuses");
        for (int c = 0; c < containers; c++) {
            ObjectNode s = statuses.addObject();
            s.put("name", containerName(app, c));
            s.putObject("state").putObject("running").put("startedAt", started);
            s.put("ready", true);
            s.put("restartCount", i % 3 == 0 ? 1 : 0);
            s.put("image", image(app, c));
            s.put("imageID", "sha256:" + hash(c * 7919L + 17, 64));
            s.put("containerID", "containerd://" + hash(i * 31L + c, 32));
            s.put("started", true);
        }
        status.put("qosClass", "Burstable");
        return pod;
    }

    private static void container(ObjectNode c, String app, int index, int i) {
        c.put("name", containerName(app, index));
        c.put("image", image(app, index));
        if (index == 0) {
            c.putArray("ports")
                    .addObject()
                    .put("name", "http")
                    .put("containerPort", 8080)
                    .put("protocol", "TCP");
        }
        if (index == 0) {
            ArrayNode env = c.putArray("env");
            env.addObject().put("name", "LOG_LEVEL").put("value", i % 5 == 0 ? "debug" : "info");
            env.addObject()
                    .put("name", "POD_NAME")
                    .putObject("valueFrom")
                    .putObject("fieldRef")
                    .put("fieldPath", "metadata.name");
            env.addObject().put("name", "DB_URL").put("value", "postgres://db." + app + ":5432/" + app);
        }
        ObjectNode resources = c.putObject("resources");
        if (index == 0) {
            resources.putObject("limits").put("cpu", "1").put("memory", "512Mi");
        }
        resources
                .putObject("requests")
                .put("cpu", index == 0 ? "250m" : "50m")
                .put("memory", index == 0 ? "256Mi" : "64Mi");
        if (index == 0) {
            probe(c.putObject("livenessProbe"), "/healthz", 10);
            probe(c.putObject("readinessProbe"), "/ready", 5);
            c.putArray("volumeMounts")
                    .addObject()
                    .put("name", "kube-api-access-" + hash(i, 5))
                    .put("readOnly", true)
                    .put("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount");
        }
        c.put("imagePullPolicy", "IfNotPresent");
    }

    private static void probe(ObjectNode p, String path, int period) {
        p.putObject("httpGet").put("path", path).put("port", 8080);
        p.put("periodSeconds", period);
    }

    private static void managedSpec(ObjectNode e, String time, String app, int containers, String ownerUid) {
        e.put("manager", "kube-controller-manager");
        e.put("operation", "Update");
        e.put("apiVersion", "v1");
        e.put("time", time);
        e.put("fieldsType", "FieldsV1");
        ObjectNode f = e.putObject("fieldsV1");
        ObjectNode meta = f.putObject("f:metadata");
        meta.putObject("f:generateName");
        ObjectNode labels = meta.putObject("f:labels");
        for (String l : new String[] {"app.kubernetes.io/name", "pod-template-hash", "tier"}) {
            labels.putObject("f:" + l);
        }
        meta.putObject("f:ownerReferences").putObject("k:{\"uid\":\"" + ownerUid + "\"}");
        ObjectNode spec = f.putObject("f:spec");
        ObjectNode cs = spec.putObject("f:containers");
        for (int c = 0; c < containers; c++) {
            ObjectNode k = cs.putObject("k:{\"name\":\"" + containerName(app, c) + "\"}");
            for (String field : new String[] {"f:image", "f:resources"}) {
                k.putObject(field);
            }
        }
        for (String field : new String[] {"f:dnsPolicy", "f:restartPolicy", "f:volumes"}) {
            spec.putObject(field);
        }
    }

    private static void managedStatus(ObjectNode e, String time) {
        e.put("manager", "kubelet");
        e.put("operation", "Update");
        e.put("apiVersion", "v1");
        e.put("time", time);
        e.put("fieldsType", "FieldsV1");
        e.put("subresource", "status");
        ObjectNode status = e.putObject("fieldsV1").putObject("f:status");
        ObjectNode conditions = status.putObject("f:conditions");
        for (String type : new String[] {"ContainersReady", "Ready"}) {
            ObjectNode k = conditions.putObject("k:{\"type\":\"" + type + "\"}");
            k.putObject("f:lastTransitionTime");
            k.putObject("f:status");
        }
        for (String field : new String[] {"f:containerStatuses", "f:phase"}) {
            status.putObject(field);
        }
    }

    private static String containerName(String app, int index) {
        return switch (index) {
            case 0 -> app;
            case 1 -> "istio-proxy";
            default -> "log-shipper";
        };
    }

    private static String image(String app, int index) {
        return switch (index) {
            case 0 -> "registry.example.com/shop/" + app + ":1.4." + (app.length() % 7);
            case 1 -> "docker.io/istio/proxyv2:1.22.3";
            default -> "docker.io/fluent/fluent-bit:3.0.7";
        };
    }

    static String uid(long i, int salt) {
        return new UUID(0x6b75_6265_6c6f_6f70L ^ (i * 0x9E37_79B9_7F4A_7C15L), (i << 8 | salt) * 0xC2B2_AE3D_27D4_EB4FL)
                .toString();
    }

    /** A deterministic lowercase hex/alphanumeric string of {@code length} characters. */
    static String hash(long seed, int length) {
        StringBuilder sb = new StringBuilder(length);
        long x = seed * 0x9E37_79B9_7F4A_7C15L + 0x632B_E59B_D9B4_E019L;
        String alphabet = length >= 32 ? "0123456789abcdef" : "bcdfghjklmnpqrstvwxz2456789";
        for (int k = 0; k < length; k++) {
            x ^= x >>> 31;
            x *= 0xBF58_476D_1CE4_E5B9L;
            x ^= x >>> 29;
            sb.append(alphabet.charAt((int) Long.remainderUnsigned(x, alphabet.length())));
        }
        return sb.toString();
    }
}
