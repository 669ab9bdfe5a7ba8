package io.kubeloop.bench.race;

/**
 * The three frameworks of the race and the floor, each with its operator's main class. {@link #JOSDK} runs from
 * kubeloop-peers' class path (fabric8 7.x needs Jackson 2); the others from kubeloop-bench's.
 */
enum Framework {
    /** kubeloop-samples' SampleController (Manager, cache-backed client, {@link io.kubeloop.samples.samplecontroller.SampleController#WORKERS} workers). */
    KUBELOOP("kubeloop", "io.kubeloop.bench.race.KubeloopOperatorChild", false),
    /** The Java Operator SDK 5 with a managed Deployment dependent. */
    JOSDK("josdk", "io.kubeloop.peers.race.JosdkOperatorChild", true),
    /** kubernetes-client/java's ControllerBuilder over a SharedInformerFactory. */
    K8S_JAVA("k8s-java", "io.kubeloop.bench.race.KubernetesJavaOperatorChild", false),
    /** The same operator with no framework: the cheapest correct one, the floor the others are held to. */
    FLOOR("floor", "io.kubeloop.bench.race.floor.FloorOperatorChild", false);

    private final String label;
    private final String mainClass;
    private final boolean peer;

    Framework(String label, String mainClass, boolean peer) {
        this.label = label;
        this.mainClass = mainClass;
        this.peer = peer;
    }

    /** The name in tables and on the command line. */
    String label() {
        return label;
    }

    /** The operator's main class. */
    String mainClass() {
        return mainClass;
    }

    /** True when the operator runs from kubeloop-peers' class path. */
    boolean peer() {
        return peer;
    }

    /**
     * The framework called {@code label}.
     *
     * @throws IllegalArgumentException for an unknown label
     */
    static Framework of(String label) {
        for (Framework f : values()) {
            if (f.label.equals(label)) {
                return f;
            }
        }
        throw new IllegalArgumentException(
                "unknown framework '" + label + "', expected kubeloop, josdk, k8s-java or floor");
    }
}
