package io.kubeloop.client.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Everything needed to talk to one API server, resolved from a kubeconfig context or the in-cluster
 * service account: where the server is, how to trust it, who we are.
 *
 * <p>Immutable and thread-safe (the {@link SSLContext} and {@link AuthProvider} are themselves
 * thread-safe). Build one with {@link KubeConfigLoader} or by hand.
 *
 * @param server the server's base URI, e.g. {@code https://127.0.0.1:6443}
 * @param sslContext trust (CA or insecure) and client certificate; server hostname verification
 *        happens inside its trust manager (against {@code tlsServerName} when set)
 * @param tlsServerName the name to send as SNI and to verify the certificate against, or null for
 *        the server URI's host
 * @param auth the source of the Authorization header
 * @param namespace the default namespace of the context ({@code default} when unset)
 * @param proxy the {@code proxy-url}, or null
 * @param source a short description of where this came from, for messages (e.g.
 *        {@code context "kind-kind" in /home/u/.kube/config})
 */
public record ClientConfig(
        URI server,
        SSLContext sslContext,
        String tlsServerName,
        AuthProvider auth,
        String namespace,
        URI proxy,
        String source) {

    public ClientConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(sslContext, "sslContext");
        Objects.requireNonNull(auth, "auth");
        namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        source = source == null ? server.toString() : source;
    }

    /**
     * Resolves the configuration like controller-runtime's {@code GetConfig}: {@code KUBECONFIG}
     * if set, else the in-cluster service account if {@code KUBERNETES_SERVICE_HOST} is set, else
     * {@code ~/.kube/config}; see {@link KubeConfigLoader#autoClientConfig()}.
     *
     * @throws KubeConfigException when nothing is configured or the configuration is invalid
     */
    public static ClientConfig auto() {
        return KubeConfigLoader.defaults().autoClientConfig();
    }

    /**
     * The current context of one kubeconfig file.
     *
     * @throws KubeConfigException when the file is missing or invalid
     */
    public static ClientConfig fromKubeconfig(Path file) {
        return KubeConfigLoader.builder().kubeconfig(file).build().clientConfig();
    }

    /** This configuration with another default namespace. */
    public ClientConfig withNamespace(String newNamespace) {
        return new ClientConfig(server, sslContext, tlsServerName, auth, newNamespace, proxy, source);
    }
}
