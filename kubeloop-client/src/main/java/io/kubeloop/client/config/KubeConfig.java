package io.kubeloop.client.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed kubeconfig: one file, or several merged the way kubectl merges {@code KUBECONFIG}.
 * Relative file references are already resolved against the directory of the file that defined
 * them, and base64 fields are already decoded, so every value here is ready to use.
 *
 * <p>Merging ({@link #merge(List)}): for clusters, users and contexts the first file that defines a
 * name wins (its whole entry; nothing is combined from later files); the first file that sets
 * {@code current-context} wins; each top-level preference is taken from the first file that sets it.
 *
 * <p>Immutable and thread-safe. Maps keep file order.
 *
 * @param files the files this was read from, in precedence order
 * @param currentContext the {@code current-context}, or null when no file sets it
 * @param clusters clusters by name
 * @param users users by name
 * @param contexts contexts by name
 * @param preferences top-level {@code preferences} entries (plain Java values), by key
 * @see <a href="https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/">
 *      Organizing cluster access using kubeconfig files</a>
 */
public record KubeConfig(
        List<Path> files,
        String currentContext,
        Map<String, Cluster> clusters,
        Map<String, User> users,
        Map<String, Context> contexts,
        Map<String, Object> preferences) {

    public KubeConfig {
        files = List.copyOf(files);
        currentContext = currentContext == null || currentContext.isEmpty() ? null : currentContext;
        clusters = ordered(clusters);
        users = ordered(users);
        contexts = ordered(contexts);
        preferences = ordered(preferences);
    }

    /** The current context's name, if any file sets one. */
    public Optional<String> currentContextName() {
        return Optional.ofNullable(currentContext);
    }

    /** Where an entry was defined, for error messages: the file and e.g. {@code clusters[1].cluster}. */
    public record Origin(Path file, String path) {

        public Origin {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(path, "path");
        }

        /** A {@link KubeConfigException} about {@code <path>.<field>} in this file. */
        KubeConfigException error(String field, String problem) {
            return KubeConfigException.in(file, path + "." + field + ": " + problem);
        }

        /** A {@link KubeConfigException} about {@code <path>.<field>} in this file, with a cause. */
        KubeConfigException error(String field, String problem, Throwable cause) {
            return KubeConfigException.in(file, path + "." + field + ": " + problem, cause);
        }
    }

    /**
     * A {@code clusters[].cluster} entry.
     *
     * @param name the entry's name
     * @param origin where it was defined
     * @param server the {@code server} URL as written, or null
     * @param certificateAuthority {@code certificate-authority}, absolute, or null
     * @param certificateAuthorityData decoded {@code certificate-authority-data} (PEM), or null
     * @param insecureSkipTlsVerify {@code insecure-skip-tls-verify}
     * @param tlsServerName {@code tls-server-name}, or null
     * @param proxyUrl {@code proxy-url} as written, or null
     * @param disableCompression {@code disable-compression} (passed to exec plugins only)
     * @param execExtension the {@code client.authentication.k8s.io/exec} extension's value as plain
     *        Java values, passed to exec plugins as {@code spec.cluster.config}, or null
     */
    public record Cluster(
            String name,
            Origin origin,
            String server,
            Path certificateAuthority,
            String certificateAuthorityData,
            boolean insecureSkipTlsVerify,
            String tlsServerName,
            String proxyUrl,
            boolean disableCompression,
            Object execExtension) {}

    /**
     * A {@code users[].user} entry.
     *
     * @param name the entry's name
     * @param origin where it was defined
     * @param token {@code token}, or null
     * @param tokenFile {@code tokenFile}, absolute, or null
     * @param clientCertificate {@code client-certificate}, absolute, or null
     * @param clientCertificateData decoded {@code client-certificate-data} (PEM), or null
     * @param clientKey {@code client-key}, absolute, or null
     * @param clientKeyData decoded {@code client-key-data} (PEM), or null
     * @param username {@code username} (basic auth), or null
     * @param password {@code password} (basic auth), or null
     * @param exec the exec credential plugin, or null
     * @param hasAuthProvider whether an {@code auth-provider} is configured (not supported)
     */
    public record User(
            String name,
            Origin origin,
            String token,
            Path tokenFile,
            Path clientCertificate,
            String clientCertificateData,
            Path clientKey,
            String clientKeyData,
            String username,
            String password,
            Exec exec,
            boolean hasAuthProvider) {

        @Override
        public String toString() {
            return "User[name=" + name + ", origin=" + origin + "]";
        }
    }

    /**
     * A {@code users[].user.exec} credential plugin.
     *
     * @param command the executable; absolute when it contained a slash, else looked up on PATH
     * @param args its arguments
     * @param env extra environment variables, in order
     * @param apiVersion {@code client.authentication.k8s.io/v1} or {@code v1beta1}, as written, or null
     * @param installHint shown when the executable is missing, or null
     * @param provideClusterInfo whether to pass the cluster in {@code KUBERNETES_EXEC_INFO}
     * @param interactiveMode {@code Never}, {@code IfAvailable} or {@code Always} as written, or null
     */
    public record Exec(
            String command,
            List<String> args,
            Map<String, String> env,
            String apiVersion,
            String installHint,
            boolean provideClusterInfo,
            String interactiveMode) {

        public Exec {
            args = List.copyOf(args);
            env = ordered(env);
        }
    }

    /**
     * A {@code contexts[].context} entry.
     *
     * @param name the entry's name
     * @param origin where it was defined
     * @param cluster the cluster's name, or null
     * @param user the user's name, or null
     * @param namespace the namespace, or null
     */
    public record Context(String name, Origin origin, String cluster, String user, String namespace) {}

    /**
     * Merges configs in precedence order (first wins), as kubectl merges the files of
     * {@code KUBECONFIG}.
     */
    public static KubeConfig merge(List<KubeConfig> configs) {
        List<Path> files = new ArrayList<>();
        String current = null;
        Map<String, Cluster> clusters = new LinkedHashMap<>();
        Map<String, User> users = new LinkedHashMap<>();
        Map<String, Context> contexts = new LinkedHashMap<>();
        Map<String, Object> preferences = new LinkedHashMap<>();
        for (KubeConfig config : configs) {
            files.addAll(config.files);
            if (current == null) {
                current = config.currentContext;
            }
            config.clusters.forEach(clusters::putIfAbsent);
            config.users.forEach(users::putIfAbsent);
            config.contexts.forEach(contexts::putIfAbsent);
            config.preferences.forEach(preferences::putIfAbsent);
        }
        return new KubeConfig(files, current, clusters, users, contexts, preferences);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
