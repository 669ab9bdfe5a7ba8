package io.kubeloop.apiserver.internal.http;

/** Minimal valid workload objects for the garbage collection and pod tests (test helper). */
final class Workloads {

    private Workloads() {}

    private static String meta(String name, String ownerRef, String finalizers) {
        return "{\"name\":\"" + name + "\",\"labels\":{\"app\":\"web\"}"
                + (ownerRef == null ? "" : ",\"ownerReferences\":[" + ownerRef + "]")
                + (finalizers == null ? "" : ",\"finalizers\":" + finalizers) + "}";
    }

    private static final String TEMPLATE = "{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";

    static String deployment(String name, String ownerRef) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":" + meta(name, ownerRef, null)
                + ",\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":" + TEMPLATE
                + "}}";
    }

    static String replicaSet(String name, String ownerRef) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":" + meta(name, ownerRef, null)
                + ",\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":" + TEMPLATE
                + "}}";
    }

    /**
     * A Job whose Pods run for an hour: it does not complete while a test looks at it, so the Job controller never
     * deletes the Pods still active at completion (a test's own Pods among them).
     */
    static String job(String name) {
        return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"sim.kubeloop.io/run-time\":\"1h\"}},"
                + "\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}";
    }

    /**
     * A Pod; {@code nodeName} null for an unbound one.
     *
     * @param specExtra extra spec fields ({@code "nodeName":"n1","terminationGracePeriodSeconds":5}) or null
     */
    static String pod(String name, String ownerRef, String finalizers, String specExtra) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" + meta(name, ownerRef, finalizers)
                + ",\"spec\":{" + (specExtra == null ? "" : specExtra + ",")
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
    }
}
