package io.kubeloop.apiserver.internal.builtin;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A Pod's quality-of-service class, which kube-apiserver sets in {@code status.qosClass} when the Pod is
 * created: {@code Guaranteed} when every container (init containers included) limits both CPU and memory
 * and requests exactly its limits (or nothing, which defaults to them); {@code BestEffort} when no container
 * requests or limits CPU or memory; {@code Burstable} otherwise.
 *
 * <p>Stateless and thread-safe.
 */
public final class PodQos {

    private static final List<String> COMPUTE = List.of("cpu", "memory");

    private PodQos() {}

    public static String of(JsonNode podSpec) {
        boolean any = false;
        boolean guaranteed = true;
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : podSpec.path(list)) {
                JsonNode requests = c.path("resources").path("requests");
                JsonNode limits = c.path("resources").path("limits");
                for (String r : COMPUTE) {
                    boolean limited = limits.has(r);
                    if (requests.has(r) || limited) {
                        any = true;
                    }
                    if (!limited
                            || requests.has(r)
                                    && !Quantities.equal(
                                            requests.get(r).asString(""),
                                            limits.get(r).asString(""))) {
                        guaranteed = false;
                    }
                }
            }
        }
        if (!any) {
            return "BestEffort";
        }
        return guaranteed ? "Guaranteed" : "Burstable";
    }

    /** Compares two quantities by text after the forms that mean the same ({@code 1} and {@code 1000m}). */
    private static final class Quantities {
        private Quantities() {}

        static boolean equal(String a, String b) {
            return normalize(a).equals(normalize(b));
        }

        private static String normalize(String q) {
            String t = q.trim();
            if (t.endsWith("m")) {
                try {
                    long milli = Long.parseLong(t.substring(0, t.length() - 1));
                    return milli % 1000 == 0 ? Long.toString(milli / 1000) : t;
                } catch (NumberFormatException e) {
                    return t;
                }
            }
            return t;
        }
    }
}
