package io.kubeloop.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kubeloop} command. Each subcommand is one class; failures of the user's making
 * (unreachable server, bad kubeconfig, 401/403, unknown resource) print one line on stderr and exit
 * non-zero — stack traces only with {@code --debug} or {@code -v 9}.
 */
@Command(name = "kubeloop",
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

    /** A usage error is one line naming what is wrong and where help is; exit code 2. */
    private static int reportBadArguments(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        cmd.getErr().println("error: " + ex.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Runs the command line with the given streams and returns the exit code (for tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new ErrorReporter());
        cli.setParameterExceptionHandler(Main::reportBadArguments);
        return cli.execute(args);
    }
}
