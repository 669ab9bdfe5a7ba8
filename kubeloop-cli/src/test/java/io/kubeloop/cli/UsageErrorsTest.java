package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Command lines the CLI cannot take, in kubectl's words and with kubectl's exit code, checked before any
 * server is needed: unknown commands and flags with "Did you mean this?", {@code -o} formats alike in every
 * command, and {@code get} without {@code --raw}.
 */
class UsageErrorsTest {

    record Run(int exit, String out, String err) {}

    private static Run kubeloop(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void aMistypedCommandGetsKubectlsSuggestionAndExitOne() {
        Run r = kubeloop("api-resourcs");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("""
                error: unknown command "api-resourcs" for "kubeloop"

                Did you mean this?
                \tapi-resources

                Run 'kubeloop --help' for usage.
                """);
    }

    @Test
    void everyCommandWithinTwoEditsOrStartingWithWhatWasTypedIsSuggested() {
        assertThat(kubeloop("api").err()).contains("Did you mean this?\n\tapi-resources\n\tapi-versions\n");
        assertThat(kubeloop("gett").err()).contains("Did you mean this?\n\tget\n\n");
        assertThat(kubeloop("sevrer").err()).contains("Did you mean this?\n\tserver\n\n");
    }

    @Test
    void anUnknownCommandWithoutANearOneIsTheErrorAndWhereHelpIs() {
        Run r = kubeloop("frobnicate");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo("error: unknown command \"frobnicate\" for \"kubeloop\"\n"
                        + "Run 'kubeloop --help' for usage.\n");
    }

    @Test
    void anUnknownCommandIsAnErrorEvenWithHelp() {
        Run r = kubeloop("frobnicate", "--help");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("error: unknown command \"frobnicate\" for \"kubeloop\"\n");
    }

    @Test
    void helpForAnUnknownCommandSuggestsTheNearOnes() {
        Run r = kubeloop("help", "wach");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("""
                error: unknown command "wach" for "kubeloop"

                Did you mean this?
                \twatch

                Run 'kubeloop --help' for usage.
                """);
    }

    @Test
    void aMistypedFlagGetsTheCommandsNearFlags() {
        Run r = kubeloop("api-resources", "--namespced=true");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("""
                error: unknown flag: --namespced

                Did you mean this?
                \t--namespace
                \t--namespaced

                Run 'kubeloop api-resources --help' for usage.
                """);
    }

    @Test
    void anUnknownFlagIsReportedRatherThanTheArgumentItTookThePlaceOf() {
        Run r = kubeloop("watch", "--al-namespaces");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("error: unknown flag: --al-namespaces\n\nDid you mean this?\n\t--all-namespaces\n");
    }

    @Test
    void anUnknownFlagIsAnErrorEvenWithHelp() {
        Run r = kubeloop("server", "--prot", "0", "--help");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("error: unknown flag: --prot\n\nDid you mean this?\n\t--port\n");
    }

    @Test
    void anUnknownShortFlagIsNamedAsPflagNamesIt() {
        assertThat(kubeloop("api-versions", "-x").err())
                .isEqualTo("error: unknown shorthand flag: 'x' in -x\n"
                        + "Run 'kubeloop api-versions --help' for usage.\n");
    }

    @Test
    void extraArgumentsAreKubectlsUnexpectedArguments() {
        assertThat(kubeloop("api-versions", "extra").err())
                .isEqualTo(
                        "error: unexpected arguments: [extra]\n" + "Run 'kubeloop api-versions --help' for usage.\n");
    }

    @Test
    void aMissingOptionIsAUsageErrorOfItsCommand() {
        Run r = kubeloop("server", "--port", "0");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo("error: Missing required option: '--kubeconfig-out=FILE'\n"
                        + "Run 'kubeloop server --help' for usage.\n");
    }

    // kubectl exits 1 for usage errors as for every other failure; so does every kubeloop command
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "nope",
                "api-resources --nope",
                "api-versions extra",
                "demo --replicas x",
                "sample-controller --metrics-bind-address",
                "get --raw",
                "watch",
                "server --port",
                "help nope",
                "api-resources -o bogus",
                "watch pods -o bogus",
                "get pods",
                "demo --replicas 11",
                "server --port 70000 " + "--kubeconfig-out /tmp/never-written",
                "sample-controller --health-probe-bind-address 8081"
            })
    void everyUsageErrorExitsOneWithNoStackTrace(String commandLine) {
        Run r = kubeloop(commandLine.isEmpty() ? new String[0] : commandLine.split(" "));
        assertThat(r.exit()).as(commandLine + ": " + r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("error: ").doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anUnknownOutputFormatIsTheSameOneLineInEveryCommand() {
        Run resources = kubeloop("api-resources", "-o", "json");
        assertThat(resources.exit()).isEqualTo(1);
        assertThat(resources.err()).isEqualTo("error: --output json is not available (one of: wide, name)\n");
        Run watch = kubeloop("watch", "pods", "--output", "wide");
        assertThat(watch.exit()).isEqualTo(1);
        assertThat(watch.err()).isEqualTo("error: --output wide is not available (one of: line, json)\n");
    }

    @Test
    void everyOutputOptionIsDescribedAlikeWithTheFormatsItAccepts() {
        CommandLine cli = new CommandLine(new Main());
        int withOutput = 0;
        for (CommandLine command : cli.getSubcommands().values()) {
            OptionSpec o = command.getCommandSpec().findOption("-o");
            if (o == null) {
                continue;
            }
            withOutput++;
            assertThat(o.names()).as(command.getCommandName()).containsExactly("-o", "--output");
            assertThat(o.paramLabel()).isEqualTo("FORMAT");
            assertThat(o.completionCandidates()).as(command.getCommandName()).isInstanceOf(OutputFormats.class);
            String formats = String.join(", ", (OutputFormats) o.completionCandidates());
            assertThat(String.join(" ", o.description()))
                    .startsWith(OutputFormats.DESCRIPTION.replace("${COMPLETION-CANDIDATES}", formats));
        }
        assertThat(withOutput).isEqualTo(2);
        assertThat(kubeloop("api-resources", "--help").out())
                .containsPattern("-o, --output=FORMAT\\s+Output format\\. One of: \\(wide, name\\)\\. Without -o:");
        assertThat(kubeloop("watch", "--help").out())
                .containsPattern("-o, --output=FORMAT\\s+Output format\\. One of: \\(line, json\\)\\. Without -o:");
    }

    @Test
    void getOfAResourceSaysInOneLineWhatGetSupports() {
        for (List<String> args :
                List.of(List.of("get", "pods"), List.of("get"), List.of("get", "deploy", "-n", "kube-system"))) {
            Run r = kubeloop(args.toArray(String[]::new));
            assertThat(r.exit()).as(args.toString()).isEqualTo(1);
            assertThat(r.err())
                    .as(args.toString())
                    .isEqualTo("error: kubeloop get supports only --raw PATH, e.g. "
                            + "kubeloop get --raw /api/v1/namespaces/default/pods; for a resource's objects use kubeloop "
                            + "watch RESOURCE\n");
        }
        assertThat(kubeloop("get", "pods", "--raw", "/version").err())
                .isEqualTo("error: arguments may not be passed when --raw is specified\n");
    }

    @Test
    void suggestionsAreWithinTwoEditsIgnoringCase() {
        assertThat(UsageErrors.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(UsageErrors.distance("", "get")).isEqualTo(3);
        assertThat(UsageErrors.similar("GET", List.of("get", "set", "watch"))).containsExactly("get", "set");
    }
}
