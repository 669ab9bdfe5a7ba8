package io.kubeloop.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kubeloop} command. Each subcommand is one class; failures of the user's making
 * (unreachable server, bad kubeconfig, 401/403, unknown resource, a bad flag value) print one line on
 * stderr and exit 1 — stack traces only with {@code --debug} or {@code -v 9}. A command line the parser
 * cannot take (unknown command or flag, missing option) is a usage error ({@link UsageErrors}): the same
 * first line, kubectl's "Did you mean this?" suggestions and where help is, and exit 1 too, as kubectl.
 */
@Command(
        name = "kubeloop",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT, // -h/--help and -V/--version on every subcommand too
        versionProvider = VersionProvider.class,
        description = "Kubernetes controllers in Java, with an embedded API server.",
        subcommands = {
            ApiResourcesCommand.class,
            ApiVersionsCommand.class,
            DemoCommand.class,
            SampleControllerCommand.class,
            GetCommand.class,
            WatchCommand.class,
            ServeCommand.class,
            GenerateCommand.class,
            ManifestsCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given streams and returns the exit code (for tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionStrategy(Main::executeUnlessUnmatched);
        cli.setExecutionExceptionHandler(new ErrorReporter());
        cli.setParameterExceptionHandler(new UsageErrors());
        return cli.execute(args);
    }

    /**
     * picocli keeps quiet about an unknown command or flag when {@code --help} is also given (it prints
     * the help of the command it did recognize and exits 0): report it as the usage error it is.
     */
    private static int executeUnlessUnmatched(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (!p.unmatched().isEmpty()) {
                throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(), p.unmatched());
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }
}
