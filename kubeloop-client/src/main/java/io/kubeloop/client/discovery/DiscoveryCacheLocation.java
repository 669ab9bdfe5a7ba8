package io.kubeloop.client.discovery;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where kubectl keeps its discovery cache, so kubeloop and kubectl share it.
 *
 * <p>The cache root is {@code --cache-dir} when given, else {@code $KUBECACHEDIR} when set, else
 * {@code ~/.kube/cache}. A server's discovery files live in {@code <root>/discovery/<host>}, where
 * {@code <host>} is the server URL as written in the kubeconfig with {@code https://} or
 * {@code http://} removed and every character outside {@code [A-Za-z0-9_/.()]} replaced by
 * {@code _}: {@code https://127.0.0.1:6443} becomes {@code 127.0.0.1_6443}.
 *
 * <p>Stateless; the environment and home directory are parameters so tests stay hermetic.
 *
 * @see <a href="https://github.com/kubernetes/cli-runtime/blob/master/pkg/genericclioptions/config_flags.go">computeDiscoverCacheDir</a>
 */
public final class DiscoveryCacheLocation {

    private DiscoveryCacheLocation() {}

    /** {@code $KUBECACHEDIR} from {@code environment} when non-empty, else {@code <home>/.kube/cache}. */
    public static Path defaultCacheDir(Map<String, String> environment, Path home) {
        String fromEnv = environment.get("KUBECACHEDIR");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return Path.of(fromEnv);
        }
        return home.resolve(".kube").resolve("cache");
    }

    /** The default cache root of this process: {@code $KUBECACHEDIR} or {@code ~/.kube/cache}. */
    public static Path defaultCacheDir() {
        return defaultCacheDir(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /**
     * The discovery directory of one server under a cache root.
     *
     * @param cacheDir the cache root ({@code --cache-dir})
     * @param server the server URL exactly as the kubeconfig writes it
     */
    public static Path discoveryDir(Path cacheDir, String server) {
        Objects.requireNonNull(cacheDir, "cacheDir");
        return cacheDir.resolve("discovery").resolve(safeHost(server));
    }

    /** The {@code <host>} directory name kubectl derives from a server URL. */
    public static String safeHost(String server) {
        Objects.requireNonNull(server, "server");
        String schemeless = server.replaceFirst("https://", "").replaceFirst("http://", "");
        String safe = schemeless.replaceAll("[^A-Za-z0-9_/.()]", "_");
        while (safe.endsWith("/") && safe.length() > 1) {
            safe = safe.substring(0, safe.length() - 1);
        }
        return safe;
    }
}
