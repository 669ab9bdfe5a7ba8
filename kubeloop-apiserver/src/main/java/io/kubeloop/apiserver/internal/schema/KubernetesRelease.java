package io.kubeloop.apiserver.internal.schema;

/**
 * The Kubernetes release the embedded server is: the one whose published OpenAPI documents the
 * repository keeps (its directory {@code kubernetes-openapi/v<major>.<minor>.<patch>}). The server's
 * {@code /version} and its simulated Nodes' kubelet say this release; a test checks that the documents
 * of exactly this release are kept.
 *
 * <p>Constants only; thread-safe.
 */
public final class KubernetesRelease {

    /** The major version. */
    public static final int MAJOR = 1;
    /** The minor version. */
    public static final int MINOR = 35;
    /** The patch version. */
    public static final int PATCH = 0;

    private KubernetesRelease() {}

    /** The release as Kubernetes tags it, e.g. {@code v1.35.0}. */
    public static String tag() {
        return "v" + MAJOR + "." + MINOR + "." + PATCH;
    }
}
