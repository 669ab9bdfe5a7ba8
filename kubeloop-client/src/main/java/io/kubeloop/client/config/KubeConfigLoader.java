package io.kubeloop.client.config;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds, merges and selects kubeconfig files the way kubectl and client-go's {@code clientcmd} do,
 * and resolves a {@link ClientConfig} from them.
 *
 * <p><b>Which files.</b> An explicit path ({@code --kubeconfig}) is the only file read and must
 * exist. Otherwise every entry of {@code KUBECONFIG} (split on {@link File#pathSeparator},
 * duplicates dropped, empty entries and missing files skipped) is read and merged; otherwise
 * {@code ~/.kube/config}. Merging (see {@link KubeConfig#merge}): the first file defining a
 * cluster, user or context name wins; the first file setting {@code current-context} wins. Relative
 * paths ({@code certificate-authority}, {@code client-certificate}, {@code client-key},
 * {@code tokenFile}, and an exec {@code command} containing a slash) are resolved against the
 * directory of the file that defined them.
 *
 * <p><b>Which context.</b> The {@linkplain Builder#context(String) explicit context} or else
 * {@code current-context}; {@linkplain Builder#cluster(String) cluster},
 * {@linkplain Builder#user(String) user} and {@linkplain Builder#namespace(String) namespace}
 * override the context's, like kubectl's {@code --cluster}, {@code --user} and {@code -n}.
 *
 * <p><b>{@link #autoClientConfig()}</b> resolves like controller-runtime's {@code GetConfig}:
 * <ol>
 *   <li>the explicit kubeconfig path, if set;
 *   <li>{@code KUBECONFIG}, if set;
 *   <li>the in-cluster service account, if {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} are set;
 *   <li>{@code ~/.kube/config}.
 * </ol>
 *
 * <p>Every failure is a {@link KubeConfigException} naming the file and field, e.g.
 * {@code kubeconfig /home/u/.kube/config: context "foo" not found}.
 *
 * <p>Immutable and thread-safe; each call reads the files again.
 */
public final class KubeConfigLoader {

    private final Path explicitPath;
    private final String context;
    private final String cluster;
    private final String user;
    private final String namespace;
    private final ConfigEnvironment environment;

    private KubeConfigLoader(Builder b) {
        this.explicitPath = b.kubeconfig;
        this.context = b.context;
        this.cluster = b.cluster;
        this.user = b.user;
        this.namespace = b.namespace;
        this.environment = b.environment;
    }

    /** A builder with no overrides and the {@linkplain ConfigEnvironment#system() system environment}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A loader with no overrides, reading the real environment. */
    public static KubeConfigLoader defaults() {
        return builder().build();
    }

    /** The files that would be read, in precedence order (they need not exist). */
    public List<Path> candidateFiles() {
        if (explicitPath != null) {
            return List.of(explicitPath);
        }
        String list = environment.variable("KUBECONFIG");
        if (list != null) {
            Set<Path> files = new LinkedHashSet<>();
            for (String entry : list.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    files.add(Path.of(entry));
                }
            }
            return List.copyOf(files);
        }
        return List.of(homeConfig());
    }

    /**
     * Reads and merges the {@linkplain #candidateFiles() files}. Missing {@code KUBECONFIG} or
     * home files are skipped (the result may be empty); a missing explicit file is an error.
     *
     * @throws KubeConfigException for a missing explicit file or any unreadable or invalid file
     */
    public KubeConfig load() {
        List<KubeConfig> configs = new ArrayList<>();
        for (Path file : candidateFiles()) {
            KubeConfig config = KubeConfigParser.parseIfExists(file);
            if (config == null && file.equals(explicitPath)) {
                throw KubeConfigException.in(file, "file does not exist");
            }
            if (config != null) {
                configs.add(config);
            }
        }
        return KubeConfig.merge(configs);
    }

    /**
     * Loads the kubeconfig and resolves the selected context.
     *
     * @throws KubeConfigException when no file exists, no context is selected, the context, its
     *         cluster or user is not found, or any used field is invalid
     */
    public ClientConfig clientConfig() {
        KubeConfig config = load();
        if (config.files().isEmpty()) {
            throw new KubeConfigException("kubeconfig " + label(candidateFiles()) + ": no such file");
        }
        return select(config);
    }

    /**
     * Resolves in controller-runtime's order: explicit kubeconfig, {@code KUBECONFIG}, in-cluster,
     * {@code ~/.kube/config}. When the in-cluster configuration is announced by the environment but
     * fails (e.g. no token) and {@code ~/.kube/config} exists, that file is used.
     *
     * @throws KubeConfigException when nothing is configured or the chosen source is invalid
     */
    public ClientConfig autoClientConfig() {
        if (explicitPath != null || environment.variable("KUBECONFIG") != null) {
            return clientConfig();
        }
        if (InClusterConfig.isAvailable(environment)) {
            try {
                ClientConfig inCluster = InClusterConfig.load(environment);
                return namespace == null ? inCluster : inCluster.withNamespace(namespace);
            } catch (KubeConfigException e) {
                if (!Files.exists(homeConfig())) {
                    throw e;
                }
            }
        }
        if (!Files.exists(homeConfig())) {
            throw new KubeConfigException("no configuration found: pass a kubeconfig, set KUBECONFIG, run in a "
                    + "cluster (KUBERNETES_SERVICE_HOST), or create " + homeConfig());
        }
        return clientConfig();
    }

    private Path homeConfig() {
        return environment.home().resolve(".kube").resolve("config");
    }

    private ClientConfig select(KubeConfig config) {
        String files = label(config.files());
        String contextName = context != null ? context : config.currentContext();
        if (contextName == null) {
            throw new KubeConfigException(
                    "kubeconfig " + files + ": current-context is not set and no context was given");
        }
        KubeConfig.Context ctx = config.contexts().get(contextName);
        if (ctx == null) {
            throw new KubeConfigException("kubeconfig " + files + ": context \"" + contextName + "\" not found");
        }
        KubeConfig.Cluster selectedCluster;
        if (cluster != null) {
            selectedCluster = config.clusters().get(cluster);
            if (selectedCluster == null) {
                throw new KubeConfigException("kubeconfig " + files + ": cluster \"" + cluster + "\" not found");
            }
        } else if (ctx.cluster() == null) {
            throw ctx.origin().error("cluster", "missing");
        } else {
            selectedCluster = config.clusters().get(ctx.cluster());
            if (selectedCluster == null) {
                throw ctx.origin().error("cluster", "cluster \"" + ctx.cluster() + "\" not found");
            }
        }
        KubeConfig.User selectedUser = null;
        if (user != null) {
            selectedUser = config.users().get(user);
            if (selectedUser == null) {
                throw new KubeConfigException("kubeconfig " + files + ": user \"" + user + "\" not found");
            }
        } else if (ctx.user() != null) {
            selectedUser = config.users().get(ctx.user());
            if (selectedUser == null) {
                throw ctx.origin().error("user", "user \"" + ctx.user() + "\" not found");
            }
        }
        String ns = namespace != null ? namespace : ctx.namespace();
        String source = "context \"" + contextName + "\" in " + ctx.origin().file();
        return ClientConfigFactory.create(selectedCluster, selectedUser, ns, source, environment);
    }

    private static String label(List<Path> files) {
        return files.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /** Options of a {@link KubeConfigLoader}; each null means "not given". Not thread-safe. */
    public static final class Builder {
        private Path kubeconfig;
        private String context;
        private String cluster;
        private String user;
        private String namespace;
        private ConfigEnvironment environment;

        private Builder() {}

        /** The only kubeconfig to read ({@code --kubeconfig}); it must exist. */
        public Builder kubeconfig(Path path) {
            this.kubeconfig = path;
            return this;
        }

        /** The context to use instead of {@code current-context} ({@code --context}). */
        public Builder context(String name) {
            this.context = blankToNull(name);
            return this;
        }

        /** The cluster to use instead of the context's ({@code --cluster}). */
        public Builder cluster(String name) {
            this.cluster = blankToNull(name);
            return this;
        }

        /** The user to use instead of the context's ({@code --user}). */
        public Builder user(String name) {
            this.user = blankToNull(name);
            return this;
        }

        /** The namespace to use instead of the context's ({@code -n}). */
        public Builder namespace(String name) {
            this.namespace = blankToNull(name);
            return this;
        }

        /** Environment variables, home, service-account directory and clock; default: the system's. */
        public Builder environment(ConfigEnvironment env) {
            this.environment = Objects.requireNonNull(env, "environment");
            return this;
        }

        /** The loader. */
        public KubeConfigLoader build() {
            if (environment == null) {
                environment = ConfigEnvironment.system();
            }
            return new KubeConfigLoader(this);
        }

        private static String blankToNull(String s) {
            return s == null || s.isBlank() ? null : s;
        }
    }
}
