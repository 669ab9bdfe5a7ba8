package io.kubeloop.controller;

import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The command line and environment of an operator's process, read as the Deployment of an operator's bundle
 * passes them: the flags of kubebuilder's scaffolded {@code main.go} and the Operator SDK's
 * {@code WATCH_NAMESPACE}. {@link OperatorMain} runs a manager from them; a {@code main} of its own parses
 * them with {@link #parse} and builds its manager from {@link #managerOptions}.
 *
 * <table>
 *   <caption>flags and variables</caption>
 *   <tr><th>flag or variable</th><th>default</th><th>what</th></tr>
 *   <tr><td>{@code --leader-elect}</td><td>false</td><td>reconcile only while holding the Lease, so that
 *       replicas run side by side with one active; the Lease is handed back on a clean stop</td></tr>
 *   <tr><td>{@code --leader-election-id}</td><td>the operator's name</td><td>the Lease's name</td></tr>
 *   <tr><td>{@code --leader-election-namespace}</td><td>{@code POD_NAMESPACE}, else the namespace of the
 *       pod's ServiceAccount ({@code /var/run/secrets/kubernetes.io/serviceaccount/namespace}), else the
 *       kubeconfig context's</td><td>the Lease's namespace</td></tr>
 *   <tr><td>{@code --metrics-bind-address}</td><td>{@code 0} (off)</td><td>where {@code /metrics} is served
 *       over HTTP, e.g. {@code :8080}</td></tr>
 *   <tr><td>{@code --health-probe-bind-address}</td><td>{@code :8081}</td><td>where {@code /healthz} and
 *       {@code /readyz} are served; {@code 0} turns them off</td></tr>
 *   <tr><td>{@code --metrics-secure}</td><td>false</td><td>only {@code false} is accepted: metrics are
 *       served over plain HTTP (see below)</td></tr>
 *   <tr><td>{@code --kubeconfig}</td><td>none</td><td>a kubeconfig file; without it {@code KUBECONFIG},
 *       else the in-cluster configuration, else {@code ~/.kube/config} (controller-runtime's order)</td></tr>
 *   <tr><td>{@code -h}, {@code --help}</td><td></td><td>the usage, on stdout</td></tr>
 *   <tr><td>{@code WATCH_NAMESPACE}</td><td>empty</td><td>the namespaces the cache holds, comma-separated;
 *       empty or unset for all namespaces</td></tr>
 * </table>
 *
 * <p>Flags are written as Go's {@code flag} package reads them: {@code --name=value} or {@code --name value}
 * (one or two dashes), a boolean as {@code --name} or {@code --name=true|false}; a flag given twice takes its
 * last value; {@code --} ends the flags. A bind address is {@code [HOST]:PORT} ({@code :8080} for every
 * interface, {@code [::1]:8080}), or {@code 0} for none.
 *
 * <p>Metrics over HTTPS with authentication and authorization — kubebuilder's default since v4, through
 * TokenReviews and SubjectAccessReviews — are not offered: the metrics are served over HTTP, as
 * kubebuilder's {@code --metrics-secure=false} serves them, to whoever reaches the port. Keep the port
 * inside the cluster (the bundle's metrics Service is a ClusterIP Service) and limit who reaches it with a
 * NetworkPolicy. {@code --metrics-secure} or {@code --metrics-secure=true} is refused with a one-line error,
 * so that a Deployment asking for authenticated metrics does not get open ones silently.
 *
 * <p>Immutable and thread-safe.
 */
public final class OperatorFlags {

    /** The Operator SDK's variable naming the namespaces the operator watches. */
    public static final String WATCH_NAMESPACE = "WATCH_NAMESPACE";

    /** The pod's namespace, as the bundle's Deployment sets it from the downward API. */
    public static final String POD_NAMESPACE = "POD_NAMESPACE";

    /** The default of {@code --health-probe-bind-address}, kubebuilder's. */
    public static final String DEFAULT_HEALTH_PROBE_BIND_ADDRESS = ":8081";

    /** The default of {@code --metrics-bind-address}: off, as kubebuilder's. */
    public static final String DEFAULT_METRICS_BIND_ADDRESS = "0";

    private enum Flag {
        HEALTH_PROBE_BIND_ADDRESS(
                "health-probe-bind-address",
                false,
                "The address the probe endpoint binds to: /healthz and /readyz; 0 disables it. (default \""
                        + DEFAULT_HEALTH_PROBE_BIND_ADDRESS + "\")"),
        KUBECONFIG(
                "kubeconfig",
                false,
                "Path to a kubeconfig. Only required if out-of-cluster; else $KUBECONFIG, the in-cluster"
                        + " configuration, ~/.kube/config."),
        LEADER_ELECT(
                "leader-elect",
                true,
                "Enable leader election for controller manager. Enabling this will ensure there is only one"
                        + " active controller manager."),
        LEADER_ELECTION_ID("leader-election-id", false, "The name of the leader-election Lease. (default \"%s\")"),
        LEADER_ELECTION_NAMESPACE(
                "leader-election-namespace",
                false,
                "The namespace of the leader-election Lease. (default $" + POD_NAMESPACE
                        + ", else the pod's ServiceAccount namespace, else the kubeconfig context's)"),
        METRICS_BIND_ADDRESS(
                "metrics-bind-address",
                false,
                "The address the metrics endpoint binds to: /metrics over HTTP, e.g. :8080; 0 disables it."
                        + " (default \"" + DEFAULT_METRICS_BIND_ADDRESS + "\")"),
        METRICS_SECURE(
                "metrics-secure",
                true,
                "Must be false: metrics are served over HTTP; HTTPS with authentication is not offered."
                        + " (default false)");

        final String name;
        final boolean bool;
        final String help;

        Flag(String name, boolean bool, String help) {
            this.name = name;
            this.bool = bool;
            this.help = help;
        }

        static Optional<Flag> named(String name) {
            for (Flag f : values()) {
                if (f.name.equals(name)) {
                    return Optional.of(f);
                }
            }
            return Optional.empty();
        }
    }

    private final boolean help;
    private final Path kubeconfig;
    private final boolean leaderElect;
    private final String leaderElectionId;
    private final String leaderElectionNamespace;
    private final InetSocketAddress metricsBindAddress;
    private final InetSocketAddress healthProbeBindAddress;
    private final List<String> watchNamespaces;
    private final String identity;

    private OperatorFlags(
            boolean help,
            Path kubeconfig,
            boolean leaderElect,
            String leaderElectionId,
            String leaderElectionNamespace,
            InetSocketAddress metricsBindAddress,
            InetSocketAddress healthProbeBindAddress,
            List<String> watchNamespaces,
            String identity) {
        this.help = help;
        this.kubeconfig = kubeconfig;
        this.leaderElect = leaderElect;
        this.leaderElectionId = leaderElectionId;
        this.leaderElectionNamespace = leaderElectionNamespace;
        this.metricsBindAddress = metricsBindAddress;
        this.healthProbeBindAddress = healthProbeBindAddress;
        this.watchNamespaces = List.copyOf(watchNamespaces);
        this.identity = identity;
    }

    /**
     * Reads {@code args} and {@code environment}'s variables ({@code WATCH_NAMESPACE}, {@code POD_NAMESPACE},
     * {@code HOSTNAME}) and ServiceAccount directory.
     *
     * @param operatorName the operator's name: the default Lease name
     * @param args the process's arguments
     * @param environment the process's environment, e.g. {@link ConfigEnvironment#system()}
     * @return the flags; {@link #help()} when help was asked for (the other flags then hold their defaults)
     * @throws IllegalArgumentException with a one-line message for a flag that is not defined, a missing or
     *     invalid value, an argument that is no flag, or {@code --metrics-secure=true}
     */
    public static OperatorFlags parse(String operatorName, List<String> args, ConfigEnvironment environment) {
        Objects.requireNonNull(operatorName, "operatorName");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(environment, "environment");
        boolean help = false;
        String kubeconfig = null;
        boolean leaderElect = false;
        String leaseName = operatorName;
        String leaseNamespace = null;
        String metrics = DEFAULT_METRICS_BIND_ADDRESS;
        String probes = DEFAULT_HEALTH_PROBE_BIND_ADDRESS;
        boolean metricsSecure = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = Objects.requireNonNull(args.get(i), "argument");
            if (arg.equals("--")) {
                if (i + 1 < args.size()) {
                    throw new IllegalArgumentException(
                            "unexpected argument \"" + args.get(i + 1) + "\": the operator takes flags only");
                }
                break;
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                throw new IllegalArgumentException(
                        "unexpected argument \"" + arg + "\": the operator takes flags only");
            }
            String body = arg.startsWith("--") ? arg.substring(2) : arg.substring(1);
            int eq = body.indexOf('=');
            String name = eq < 0 ? body : body.substring(0, eq);
            String inline = eq < 0 ? null : body.substring(eq + 1);
            if (name.equals("h") || name.equals("help")) {
                help = true;
                continue;
            }
            Flag flag = Flag.named(name)
                    .orElseThrow(() -> new IllegalArgumentException("flag provided but not defined: --" + name));
            String value;
            if (flag.bool) {
                value = inline == null ? "true" : inline;
            } else if (inline != null) {
                value = inline;
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new IllegalArgumentException("flag needs an argument: --" + name);
            }
            switch (flag) {
                case HEALTH_PROBE_BIND_ADDRESS -> probes = value;
                case KUBECONFIG -> kubeconfig = value;
                case LEADER_ELECT -> leaderElect = bool(flag, value);
                case LEADER_ELECTION_ID -> leaseName = value;
                case LEADER_ELECTION_NAMESPACE -> leaseNamespace = value;
                case METRICS_BIND_ADDRESS -> metrics = value;
                case METRICS_SECURE -> metricsSecure = bool(flag, value);
            }
        }
        if (metricsSecure) {
            throw new IllegalArgumentException("--metrics-secure: metrics over HTTPS with authentication are not"
                    + " offered; serve them over HTTP (--metrics-secure=false, the default) and keep the port"
                    + " inside the cluster");
        }
        if (leaseName.isBlank()) {
            throw new IllegalArgumentException("--leader-election-id must not be empty");
        }
        return new OperatorFlags(
                help,
                kubeconfig == null || kubeconfig.isEmpty() ? null : Path.of(kubeconfig),
                leaderElect,
                leaseName,
                leaseNamespace != null && !leaseNamespace.isEmpty() ? leaseNamespace : podNamespace(environment),
                bindAddress(Flag.METRICS_BIND_ADDRESS, metrics),
                bindAddress(Flag.HEALTH_PROBE_BIND_ADDRESS, probes),
                watchNamespaces(environment.variables().get(WATCH_NAMESPACE)),
                hostName(environment) + "_" + UUID.randomUUID());
    }

    /**
     * The usage {@code --help} prints: the flags, their defaults, the variables.
     *
     * @param operatorName the operator's name, as the usage line shows it
     */
    public static String usage(String operatorName) {
        StringBuilder out = new StringBuilder("Usage: " + operatorName + " [flags]\n\nFlags:\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"-h, --help", "Print this help and exit."});
        for (Flag f : Flag.values()) {
            rows.add(new String[] {
                "--" + f.name + (f.bool ? "" : " string"),
                f == Flag.LEADER_ELECTION_ID ? f.help.formatted(operatorName) : f.help
            });
        }
        rows.sort((a, b) -> a[0].replace("-h, ", "").compareTo(b[0].replace("-h, ", "")));
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        for (String[] r : rows) {
            out.append("  ")
                    .append(r[0])
                    .append(" ".repeat(width - r[0].length() + 3))
                    .append(r[1])
                    .append('\n');
        }
        out.append("\nEnvironment:\n")
                .append("  " + WATCH_NAMESPACE + "   The namespaces to watch, comma-separated; empty or unset: all.\n")
                .append("  " + POD_NAMESPACE + "     The pod's namespace: the leader-election Lease's.\n");
        return out.toString();
    }

    /** Whether {@code -h} or {@code --help} was given. */
    public boolean help() {
        return help;
    }

    /** {@code --kubeconfig}: the kubeconfig file to use, if given. */
    public Optional<Path> kubeconfig() {
        return Optional.ofNullable(kubeconfig);
    }

    /** {@code --leader-elect}. */
    public boolean leaderElect() {
        return leaderElect;
    }

    /** {@code --leader-election-id}: the Lease's name; default the operator's name. */
    public String leaderElectionId() {
        return leaderElectionId;
    }

    /**
     * The Lease's namespace: {@code --leader-election-namespace}, else {@code POD_NAMESPACE}, else the pod's
     * ServiceAccount namespace; empty when none of them is there (a process outside a pod).
     */
    public Optional<String> leaderElectionNamespace() {
        return Optional.ofNullable(leaderElectionNamespace);
    }

    /** {@code --metrics-bind-address}: where {@code /metrics} is served; empty for nowhere ({@code 0}). */
    public Optional<InetSocketAddress> metricsBindAddress() {
        return Optional.ofNullable(metricsBindAddress);
    }

    /** {@code --health-probe-bind-address}: where the probes are served; empty for nowhere ({@code 0}). */
    public Optional<InetSocketAddress> healthProbeBindAddress() {
        return Optional.ofNullable(healthProbeBindAddress);
    }

    /** {@code WATCH_NAMESPACE}: the namespaces the cache holds, in order, each once; empty for all. */
    public List<String> watchNamespaces() {
        return watchNamespaces;
    }

    /**
     * This process's identity in the Lease: its host name ({@code HOSTNAME}, in a pod the pod's name) and a
     * random suffix, as client-go's.
     */
    public String identity() {
        return identity;
    }

    /**
     * The manager's options these flags ask for: the metrics and probe addresses; the cache's namespaces of
     * {@code WATCH_NAMESPACE}; with {@code --leader-elect}, leader election on the Lease (handed back on a
     * clean stop, so that a waiting replica takes over at once).
     *
     * @param fallbackNamespace the Lease's namespace when neither the flag nor the pod names one (the
     *     kubeconfig context's namespace)
     * @return the options; their other parts are {@link ManagerOptions#defaults()}'
     */
    public ManagerOptions managerOptions(String fallbackNamespace) {
        ManagerOptions.Builder b =
                ManagerOptions.builder().metricsAddress(metricsBindAddress).healthProbeAddress(healthProbeBindAddress);
        if (!watchNamespaces.isEmpty()) {
            b.cache(CacheOptions.defaults().withDefaultNamespaces(watchNamespaces.toArray(String[]::new)));
        }
        if (leaderElect) {
            String namespace = leaderElectionNamespace != null
                    ? leaderElectionNamespace
                    : Objects.requireNonNull(fallbackNamespace, "fallbackNamespace");
            b.leaderElection(LeaderElectionOptions.defaults(namespace, leaderElectionId, identity)
                    .withReleaseOnStop(true));
        }
        return b.build();
    }

    @Override
    public String toString() {
        return "OperatorFlags[leaderElect=" + leaderElect + ", leaderElectionId=" + leaderElectionId
                + ", leaderElectionNamespace=" + leaderElectionNamespace + ", metricsBindAddress="
                + metricsBindAddress + ", healthProbeBindAddress=" + healthProbeBindAddress + ", watchNamespaces="
                + watchNamespaces + ", kubeconfig=" + kubeconfig + ", help=" + help + "]";
    }

    private static boolean bool(Flag flag, String value) {
        return switch (value) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default ->
                throw new IllegalArgumentException(
                        "invalid boolean value \"" + value + "\" for --" + flag.name + ": true or false");
        };
    }

    /** {@code 0} or empty: none; {@code [HOST]:PORT} otherwise. */
    private static InetSocketAddress bindAddress(Flag flag, String value) {
        if (value.isEmpty() || value.equals("0")) {
            return null;
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "invalid value \"" + value + "\" for --" + flag.name + ": [HOST]:PORT or 0");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("invalid value \"" + value + "\" for --" + flag.name + ": \""
                    + value.substring(colon + 1) + "\" is no port (0-65535)");
        }
        if (host.isEmpty()) {
            return new InetSocketAddress(port);
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(
                    "invalid value \"" + value + "\" for --" + flag.name + ": unknown host \"" + host + "\"");
        }
        return address;
    }

    private static List<String> watchNamespaces(String value) {
        if (value == null) {
            return List.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            String ns = part.strip();
            if (!ns.isEmpty()) {
                out.add(ns);
            }
        }
        return List.copyOf(out);
    }

    /** {@code POD_NAMESPACE}, else the ServiceAccount's namespace file, else null. */
    private static String podNamespace(ConfigEnvironment environment) {
        String fromEnv = environment.variables().get(POD_NAMESPACE);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.strip();
        }
        Path file = environment.serviceAccountDir().resolve("namespace");
        try {
            String fromFile = Files.readString(file, StandardCharsets.UTF_8).strip();
            return fromFile.isEmpty() ? null : fromFile;
        } catch (IOException e) {
            return null;
        }
    }

    private static String hostName(ConfigEnvironment environment) {
        String fromEnv = environment.variables().get("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.strip();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
