package io.kubeloop.cli;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.KubeConfigLoader;
import io.kubeloop.client.discovery.DiscoveryCacheLocation;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * kubectl's connection flags, shared by every command that talks to a server. Building the client
 * resolves the kubeconfig exactly as kubectl does: {@code --kubeconfig}, else {@code KUBECONFIG},
 * else the in-cluster service account, else {@code ~/.kube/config}.
 */
final class ConnectionOptions {

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Path to the kubeconfig file.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context to use.")
    String context;

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NS",
            description = "The namespace to use.")
    String namespace;

    @Option(
            names = "--cache-dir",
            paramLabel = "DIR",
            description = "Discovery cache directory (default: $KUBECACHEDIR or ~/.kube/cache, shared with kubectl).")
    Path cacheDir;

    @Option(
            names = {"-v", "--v"},
            paramLabel = "N",
            defaultValue = "0",
            description = "Log level as kubectl's: 6 requests and latency, 7 plus request headers, "
                    + "8 plus response headers and bodies. Credentials are always redacted.")
    int verbosity;

    @Option(names = "--debug", description = "Print stack traces of errors.")
    boolean debug;

    /** Builds a client; errors in the kubeconfig surface as one-line exceptions. */
    KubeClient connect(PrintWriter err) {
        KubeConfigLoader.Builder loader = KubeConfigLoader.builder();
        if (kubeconfig != null) {
            loader.kubeconfig(kubeconfig);
        }
        if (context != null) {
            loader.context(context);
        }
        if (namespace != null) {
            loader.namespace(namespace);
        }
        ClientConfig config = loader.build().autoClientConfig();
        ClientOptions options = ClientOptions.builder()
                .verbosity(verbosity)
                .logSink(line -> {
                    err.println(line);
                    err.flush();
                })
                .discoveryCacheDir(cacheDir != null ? cacheDir : DiscoveryCacheLocation.defaultCacheDir())
                .build();
        return KubeClient.create(config, options);
    }

    /** True when errors should print their stack trace. */
    boolean traces() {
        return debug || verbosity >= 9;
    }
}
