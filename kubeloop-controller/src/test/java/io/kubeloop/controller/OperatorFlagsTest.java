package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.time.Ticker;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorFlagsTest {

    @TempDir
    Path dir;

    private ConfigEnvironment env(Map<String, String> variables) {
        return new ConfigEnvironment(variables, dir, dir.resolve("no-serviceaccount"), Ticker.system());
    }

    private OperatorFlags parse(String... args) {
        return OperatorFlags.parse("widget-operator", List.of(args), env(Map.of()));
    }

    @Test
    void withoutFlagsTheDefaultsAreKubebuildersProbesOnlyAndNoLeaderElection() {
        OperatorFlags flags = parse();

        assertThat(flags.leaderElect()).isFalse();
        assertThat(flags.leaderElectionId()).isEqualTo("widget-operator");
        assertThat(flags.metricsBindAddress()).isEmpty();
        assertThat(flags.healthProbeBindAddress()).contains(new InetSocketAddress(8081));
        assertThat(flags.watchNamespaces()).isEmpty();
        assertThat(flags.kubeconfig()).isEmpty();
        assertThat(flags.help()).isFalse();
    }

    @Test
    void theFlagsOfAScaffoldedDeploymentAreRead() {
        OperatorFlags flags = parse(
                "--leader-elect",
                "--leader-election-id=widgets-lease",
                "--metrics-bind-address=:8080",
                "--health-probe-bind-address=:8081");

        assertThat(flags.leaderElect()).isTrue();
        assertThat(flags.leaderElectionId()).isEqualTo("widgets-lease");
        assertThat(flags.metricsBindAddress()).contains(new InetSocketAddress(8080));
        assertThat(flags.healthProbeBindAddress()).contains(new InetSocketAddress(8081));
    }

    @Test
    void flagsAreReadAsGosFlagPackageReadsThem() {
        OperatorFlags flags = parse(
                "-leader-elect=true",
                "--metrics-bind-address",
                "127.0.0.1:9090",
                "-health-probe-bind-address=0",
                "--leader-elect=false",
                "--leader-elect",
                "--kubeconfig",
                "/tmp/k",
                "--");

        assertThat(flags.leaderElect()).as("the last value wins").isTrue();
        assertThat(flags.metricsBindAddress()).contains(new InetSocketAddress("127.0.0.1", 9090));
        assertThat(flags.healthProbeBindAddress()).as("0 turns it off").isEmpty();
        assertThat(flags.kubeconfig()).contains(Path.of("/tmp/k"));
    }

    @Test
    void aFlagThatIsNotDefinedIsOneLineInGosWords() {
        assertThatThrownBy(() -> parse("--leader-elect", "--zap-devel"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("flag provided but not defined: --zap-devel");
    }

    @Test
    void missingAndInvalidValuesAreOneLineNamingTheFlag() {
        assertThatThrownBy(() -> parse("--metrics-bind-address"))
                .hasMessage("flag needs an argument: --metrics-bind-address");
        assertThatThrownBy(() -> parse("--metrics-bind-address=8080"))
                .hasMessage("invalid value \"8080\" for --metrics-bind-address: [HOST]:PORT or 0");
        assertThatThrownBy(() -> parse("--health-probe-bind-address=:http"))
                .hasMessage("invalid value \":http\" for --health-probe-bind-address: \"http\" is no port (0-65535)");
        assertThatThrownBy(() -> parse("--leader-elect=yes"))
                .hasMessage("invalid boolean value \"yes\" for --leader-elect: true or false");
        assertThatThrownBy(() -> parse("run")).hasMessage("unexpected argument \"run\": the operator takes flags only");
    }

    @Test
    void metricsOverHttpsAreRefusedRatherThanServedOpenAndFalseIsAccepted() {
        assertThatThrownBy(() -> parse("--metrics-secure"))
                .hasMessageStartingWith("--metrics-secure: metrics over HTTPS with authentication are not offered");
        assertThat(parse("--metrics-secure=false", "--metrics-bind-address=:8080")
                        .metricsBindAddress())
                .contains(new InetSocketAddress(8080));
    }

    @Test
    void helpIsAskedWithDashHOrDashDashHelpAndTheUsageNamesEveryFlagAndVariable() {
        assertThat(parse("-h").help()).isTrue();
        assertThat(parse("--help").help()).isTrue();
        String usage = OperatorFlags.usage("widget-operator");
        assertThat(usage)
                .startsWith("Usage: widget-operator [flags]\n")
                .contains(
                        "--leader-elect ",
                        "--leader-election-id string",
                        "(default \"widget-operator\")",
                        "--leader-election-namespace string",
                        "--metrics-bind-address string",
                        "--health-probe-bind-address string",
                        "(default \":8081\")",
                        "--metrics-secure",
                        "--kubeconfig string",
                        "-h, --help",
                        "WATCH_NAMESPACE",
                        "POD_NAMESPACE");
    }

    @Test
    void watchNamespaceIsTheOperatorSdksCommaSeparatedListAndEmptyMeansAll() {
        assertThat(OperatorFlags.parse("w", List.of(), env(Map.of("WATCH_NAMESPACE", " shop, billing,,shop ")))
                        .watchNamespaces())
                .containsExactly("shop", "billing");
        assertThat(OperatorFlags.parse("w", List.of(), env(Map.of("WATCH_NAMESPACE", "")))
                        .watchNamespaces())
                .isEmpty();
    }

    @Test
    void theLeaseNamespaceIsTheFlagsElseThePodsElseTheServiceAccountsNamespace() throws Exception {
        Path account = Files.createDirectories(dir.resolve("serviceaccount"));
        Files.writeString(account.resolve("namespace"), "from-file\n");
        ConfigEnvironment inPod = new ConfigEnvironment(Map.of(), dir, account, Ticker.system());

        assertThat(OperatorFlags.parse("w", List.of(), inPod).leaderElectionNamespace())
                .contains("from-file");
        assertThat(OperatorFlags.parse("w", List.of(), inPod.withVariables(Map.of("POD_NAMESPACE", "from-env")))
                        .leaderElectionNamespace())
                .contains("from-env");
        assertThat(OperatorFlags.parse(
                                "w",
                                List.of("--leader-election-namespace=from-flag"),
                                inPod.withVariables(Map.of("POD_NAMESPACE", "from-env")))
                        .leaderElectionNamespace())
                .contains("from-flag");
        assertThat(parse().leaderElectionNamespace()).as("outside a pod").isEmpty();
    }

    @Test
    void theIdentityIsTheHostNameWithARandomSuffix() {
        OperatorFlags one = OperatorFlags.parse("w", List.of(), env(Map.of("HOSTNAME", "widget-operator-7d9f-x2")));
        OperatorFlags two = OperatorFlags.parse("w", List.of(), env(Map.of("HOSTNAME", "widget-operator-7d9f-x2")));

        assertThat(one.identity()).startsWith("widget-operator-7d9f-x2_");
        assertThat(one.identity()).isNotEqualTo(two.identity());
    }

    @Test
    void theManagerOptionsCarryTheAddressesTheNamespacesAndALeaseHandedBackOnStop() {
        OperatorFlags flags = OperatorFlags.parse(
                "widget-operator",
                List.of("--leader-elect", "--metrics-bind-address=:8080"),
                env(Map.of("WATCH_NAMESPACE", "shop,billing", "POD_NAMESPACE", "widgets-system")));

        ManagerOptions options = flags.managerOptions("default");

        assertThat(options.metricsAddress()).contains(new InetSocketAddress(8080));
        assertThat(options.healthProbeAddress()).contains(new InetSocketAddress(8081));
        assertThat(options.cache().defaultNamespaces()).containsExactlyInAnyOrder("shop", "billing");
        LeaderElectionOptions election = options.leaderElection().orElseThrow();
        assertThat(election.namespace()).isEqualTo("widgets-system");
        assertThat(election.name()).isEqualTo("widget-operator");
        assertThat(election.identity()).isEqualTo(flags.identity());
        assertThat(election.releaseOnStop()).isTrue();

        assertThat(parse("--leader-elect")
                        .managerOptions("dev")
                        .leaderElection()
                        .orElseThrow()
                        .namespace())
                .as("outside a pod, the kubeconfig context's namespace")
                .isEqualTo("dev");
        assertThat(parse().managerOptions("dev").leaderElection()).isEmpty();
    }
}
