package io.kubeloop.cli;

import io.kubeloop.apiserver.AdmissionPlugin;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.apiserver.SimulatedCluster.Workloads;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop server}: runs the embedded Kubernetes API server until stopped.
 *
 * <p>Contract: flags are checked before anything listens; the kubeconfig (CA data, server URL, token,
 * a current context named {@code kubeloop}) is written before the one ready line
 * {@code kubeloop API server ready at https://HOST:PORT; kubeconfig: FILE} appears on stdout, so a
 * script may use the file as soon as it sees that line. SIGINT (Ctrl-C) and SIGTERM stop it
 * cleanly — watches ended, data flushed — and the process exits 0; a bad flag, a port in use, an
 * unwritable kubeconfig path or a data directory that cannot be opened print one line on stderr and
 * exit 1, and so does a server that closed itself because its write-ahead log failed. A flag the
 * parser cannot take (a missing {@code --port}) is a usage error: that line, where help is, and exit 1
 * too ({@link UsageErrors}).
 *
 * <p>Not thread-safe: picocli runs it once on the main thread.
 */
@Command(name = "server", description = "Run the embedded Kubernetes API server until stopped (Ctrl-C or SIGTERM).")
final class ServeCommand implements Callable<Integer> {

    /** The ready line's prefix; tests and scripts wait for it. */
    static final String READY_PREFIX = "kubeloop API server ready at ";

    @Spec
    CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "PORT", description = "HTTPS port; 0 picks a free one.")
    int port;

    @Option(
            names = "--kubeconfig-out",
            required = true,
            paramLabel = "FILE",
            description = "Where to write the kubeconfig for this server (context 'kubeloop').")
    Path kubeconfigOut;

    @Option(
            names = "--bind",
            paramLabel = "ADDR",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Keep objects in DIR so they survive restarts (default: in memory).")
    Path dataDir;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "Bearer token clients must send (default: a random one per run).")
    String token;

    @Option(
            names = "--token-auth-file",
            paramLabel = "FILE",
            description = "Static users: one 'token,user,uid,\"group1,group2\"' line per token "
                    + "(kube-apiserver's format).")
    Path tokenAuthFile;

    @Option(
            names = "--anonymous-auth",
            paramLabel = "BOOL",
            arity = "1",
            defaultValue = "true",
            description = "Whether requests without credentials run as system:anonymous (true, the default: "
                    + "public paths answer, the rest 403) or get 401 Unauthorized (false).")
    boolean anonymousAuth = true;

    @Option(
            names = "--audit-log-path",
            paramLabel = "FILE",
            description = "Append one JSON audit event per request to FILE (who did what, with the response code).")
    Path auditLog;

    @Option(
            names = "--enable-admission-plugins",
            paramLabel = "NAMES",
            split = ",",
            description = "Admission plugins to run besides the default ones, comma-separated as kube-apiserver takes"
                    + " them: OwnerReferencesPermissionEnforcement. MutatingAdmissionWebhook, NamespaceLifecycle,"
                    + " ValidatingAdmissionPolicy and ValidatingAdmissionWebhook always run; naming them changes"
                    + " nothing.")
    List<String> admissionPlugins = new ArrayList<>();

    @Option(
            names = "--history",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Watch history window in events (default: ${DEFAULT-VALUE}).")
    int history;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            defaultValue = "1",
            description = "Simulated Nodes that run the workloads' Pods (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
            names = "--no-workloads",
            description = "Run no scheduler, kubelets or workload controllers: Pods stay Pending, as on a bare API"
                    + " server.")
    boolean noWorkloads;

    @Option(
            names = "--live-view-address",
            defaultValue = "0",
            paramLabel = "[HOST]:PORT",
            description = "Serve a live view of the server (resources, a feed of changes) on plain HTTP here, e.g."
                    + " 127.0.0.1:8090 (default 0: off).")
    String liveViewAddress;

    @Override
    public Integer call() {
        ServerOptions options = options();
        var liveView = SampleControllerCommand.bindAddress("--live-view-address", liveViewAddress);
        Path kubeconfig = checkedKubeconfigPath(kubeconfigOut);
        ServerLifetime lifetime = ServerLifetime.start(options);
        PrintWriter out = spec.commandLine().getOut();
        try {
            lifetime.server().writeKubeconfig(kubeconfig);
            liveView.map(a -> lifetime.server().serveLiveView(a))
                    .ifPresent(a -> out.println("live view of the API server: http://" + hostPort(a) + "/"));
        } catch (RuntimeException e) {
            lifetime.stop();
            throw e;
        }
        out.println(READY_PREFIX + lifetime.server().url() + "; kubeconfig: " + kubeconfig);
        out.flush();
        lifetime.awaitStopSignal();
        lifetime.stop();
        lifetime.failure().ifPresent(f -> {
            throw new IllegalStateException(
                    "the API server stopped after a write-ahead log failure: " + f.getMessage(), f);
        });
        out.println("kubeloop API server stopped");
        out.flush();
        return 0;
    }

    /** {@code host:port} of a bound address, naming 127.0.0.1 for the wildcard one. */
    static String hostPort(InetSocketAddress a) {
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
        return host + ":" + a.getPort();
    }

    /** The server options these flags ask for; throws a one-line {@link IllegalArgumentException} for bad ones. */
    ServerOptions options() {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, got " + port);
        }
        if (history < 1) {
            throw new IllegalArgumentException("--history must be at least 1, got " + history);
        }
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        if (bind.isBlank()) {
            throw new IllegalArgumentException("--bind must name an address, e.g. 127.0.0.1 or 0.0.0.0");
        }
        if (token != null && (token.isBlank() || token.chars().anyMatch(c -> c <= ' ' || c > '~'))) {
            throw new IllegalArgumentException("--token must be printable ASCII without spaces");
        }
        ServerOptions options = baseOptions()
                .withPort(port)
                .withBindAddress(bind)
                .withHistorySize(history)
                .withCluster(SimulatedCluster.defaults()
                        .withNodes(nodes)
                        .withWorkloads(noWorkloads ? Workloads.OFF : Workloads.PODS));
        if (token != null) {
            options = options.withToken(token);
        }
        if (tokenAuthFile != null) {
            if (!Files.isRegularFile(tokenAuthFile)) {
                throw new IllegalArgumentException("--token-auth-file " + tokenAuthFile + " is not a readable file");
            }
            options = options.withTokenAuthFile(tokenAuthFile.toAbsolutePath());
        }
        if (!anonymousAuth) {
            options = options.withAnonymousAuth(false);
        }
        if (auditLog != null) {
            if (Files.isDirectory(auditLog)) {
                throw new IllegalArgumentException("--audit-log-path " + auditLog + " is a directory");
            }
            options = options.withAuditLog(auditLog.toAbsolutePath());
        }
        for (AdmissionPlugin plugin : admissionPlugins(admissionPlugins)) {
            options = options.withAdmissionPlugin(plugin);
        }
        if (dataDir != null) {
            if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
                throw new IllegalArgumentException("--data-dir " + dataDir + " exists and is not a directory");
            }
            options = options.withDataDir(dataDir.toAbsolutePath());
        }
        return options;
    }

    /**
     * The plugins {@code names} ({@code --enable-admission-plugins}, split at commas) enable: a name of
     * {@link AdmissionPlugin#alwaysOn()} adds nothing, an empty one (of {@code A,,B} or an empty value) is
     * skipped, as kube-apiserver's flag parsing drops it; any other name is a one-line
     * {@link IllegalArgumentException} in kube-apiserver's words, naming the plugins kubeloop knows.
     */
    static List<AdmissionPlugin> admissionPlugins(List<String> names) {
        List<AdmissionPlugin> out = new ArrayList<>();
        for (String name : names) {
            if (name.isEmpty() || AdmissionPlugin.alwaysOn().contains(name)) {
                continue;
            }
            Optional<AdmissionPlugin> plugin = AdmissionPlugin.named(name);
            if (plugin.isEmpty()) {
                List<String> optional = new ArrayList<>();
                for (AdmissionPlugin p : AdmissionPlugin.values()) {
                    optional.add(p.pluginName());
                }
                throw new IllegalArgumentException("--enable-admission-plugins plugin \"" + name
                        + "\" is unknown (kubeloop can enable " + String.join(", ", optional) + "; "
                        + String.join(", ", AdmissionPlugin.alwaysOn()) + " always run)");
            }
            if (!out.contains(plugin.get())) {
                out.add(plugin.get());
            }
        }
        return out;
    }

    /**
     * The options every server started by the CLI begins with — the one place to switch on features
     * (schemas, patches, durability) that the library does not enable by default. The kubectl
     * compatibility tests start their servers from here too, so they test what the CLI serves.
     */
    static ServerOptions baseOptions() {
        return ServerOptions.defaults();
    }

    /** Fails early, before the port is bound, when the kubeconfig cannot be written at {@code file}. */
    private static Path checkedKubeconfigPath(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            throw new IllegalArgumentException("--kubeconfig-out " + file + " is a directory; name a file");
        }
        if (Files.exists(absolute) && !Files.isWritable(absolute)) {
            throw new IllegalArgumentException("--kubeconfig-out " + file + " is not writable");
        }
        Path parent = absolute.getParent();
        for (Path p = parent; p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p) || !Files.isWritable(p)) {
                    throw new IllegalArgumentException("--kubeconfig-out " + file + " cannot be written: " + p
                            + (Files.isDirectory(p) ? " is not writable" : " is not a directory"));
                }
                break;
            }
        }
        return absolute;
    }
}
