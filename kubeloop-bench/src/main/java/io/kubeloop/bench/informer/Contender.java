package io.kubeloop.bench.informer;

import java.util.List;

/**
 * The contenders of the informer benchmark: each runs as its own child JVM with the same flags.
 *
 * <p>{@link #FABRIC8} runs from kubeloop-peers' class path (fabric8 7.x needs Jackson 2); all others
 * from kubeloop-bench's.
 */
public enum Contender {
    /** kubeloop's SharedIndexInformer of DynamicObject, defaults. */
    KUBELOOP("kubeloop", "io.kubeloop.bench.informer.KubeloopInformerChild", false, List.of()),
    /** kubeloop's SharedIndexInformer of its own immutable Pod model (kubeloop-models), defaults. */
    KUBELOOP_MODELS("kubeloop-models", "io.kubeloop.bench.informer.KubeloopInformerChild", false, List.of("models")),
    /** kubeloop with watch-list off: LIST then watch, as the peers do (informational). */
    KUBELOOP_LIST("kubeloop-list", "io.kubeloop.bench.informer.KubeloopInformerChild", false, List.of("list")),
    /**
     * kubeloop-list with the client-side rate limiter off ({@code ClientOptions.rateLimitingEnabled(false)}): a
     * paged list's time without the limiter's floor of (pages − burst) / qps.
     */
    KUBELOOP_LIST_UNTHROTTLED(
            "kubeloop-list-unthrottled",
            "io.kubeloop.bench.informer.KubeloopInformerChild",
            false,
            List.of("list", "unthrottled")),
    /** kubeloop-list-unthrottled with pages requested one after another ({@code pagePrefetch(false)}): the A/B. */
    KUBELOOP_LIST_SEQUENTIAL(
            "kubeloop-list-sequential",
            "io.kubeloop.bench.informer.KubeloopInformerChild",
            false,
            List.of("list", "unthrottled", "sequential")),
    /** fabric8 kubernetes-client 7.x SharedIndexInformer of Pod. */
    FABRIC8("fabric8", "io.kubeloop.peers.Fabric8InformerChild", true, List.of()),
    /** kubernetes-client/java SharedInformerFactory informer of V1Pod. */
    K8S_JAVA("k8s-java", "io.kubeloop.bench.informer.KubernetesJavaInformerChild", false, List.of()),
    /** Jackson trees from kubeloop's request (watch-list), no informer. */
    FLOOR("floor", "io.kubeloop.bench.informer.JacksonFloorChild", false, List.of("watchlist")),
    /** Jackson trees from one plain LIST, then a watch; no informer. */
    FLOOR_LIST("floor-list", "io.kubeloop.bench.informer.JacksonFloorChild", false, List.of("list"));

    private final String label;
    private final String mainClass;
    private final boolean peer;
    private final List<String> extraArgs;

    Contender(String label, String mainClass, boolean peer, List<String> extraArgs) {
        this.label = label;
        this.mainClass = mainClass;
        this.peer = peer;
        this.extraArgs = extraArgs;
    }

    /** The name in tables and on the command line. */
    public String label() {
        return label;
    }

    /** The child's main class. */
    public String mainClass() {
        return mainClass;
    }

    /** True when the child runs from kubeloop-peers' class path. */
    public boolean peer() {
        return peer;
    }

    /** Arguments after {@code <kubeconfig> <pods> <events>}. */
    public List<String> extraArgs() {
        return extraArgs;
    }

    /** True for the two library peers (not kubeloop, not a floor). */
    public boolean isPeerLibrary() {
        return this == FABRIC8 || this == K8S_JAVA;
    }

    /**
     * The contender called {@code label}.
     *
     * @throws IllegalArgumentException for an unknown label
     */
    public static Contender of(String label) {
        for (Contender c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "unknown contender '" + label + "', expected one of kubeloop, kubeloop-list, "
                        + "kubeloop-list-unthrottled, kubeloop-list-sequential, fabric8, k8s-java, floor, floor-list");
    }
}
