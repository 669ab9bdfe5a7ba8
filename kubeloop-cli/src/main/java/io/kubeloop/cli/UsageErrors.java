package io.kubeloop.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Prints a usage error — a command line the parser cannot take — as kubectl (cobra) does, and returns
 * {@link #EXIT_CODE}:
 *
 * <pre>
 * error: unknown command "api-resourcs" for "kubeloop"
 *
 * Did you mean this?
 * 	api-resources
 *
 * Run 'kubeloop --help' for usage.
 * </pre>
 *
 * <p>The first line names the mistake: {@code unknown command "X" for "kubeloop"}, {@code unknown flag: --X},
 * {@code unexpected arguments: [X]}, or picocli's own message (a missing option, a value that is not a
 * number). Suggestions are cobra's: the commands (or, for a flag, the command's long options) whose name is
 * within two edits of what was typed, or starts with it. The last line says where help is. No stack trace.
 *
 * <p>Stateless and thread-safe.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {

    /** The exit code of every usage error, as kubectl's (1, like every other failure of the user's making). */
    static final int EXIT_CODE = 1;

    /** Cobra's {@code SuggestionsMinimumDistance}. */
    private static final int MAX_DISTANCE = 2;

    private static final Pattern UNKNOWN_SUBCOMMAND = Pattern.compile("Unknown subcommand '(.*)'\\.");

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        Usage usage = describe(ex, cmd);
        PrintWriter err = cmd.getErr();
        err.println("error: " + usage.message());
        if (!usage.suggestions().isEmpty()) {
            err.println();
            err.println("Did you mean this?");
            usage.suggestions().forEach(s -> err.println("\t" + s));
            err.println();
        }
        err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage.");
        err.flush();
        return EXIT_CODE;
    }

    /** What is wrong, and what the user may have meant. */
    record Usage(String message, List<String> suggestions) {}

    private static Usage describe(CommandLine.ParameterException ex, CommandLine cmd) {
        Matcher helpFor = UNKNOWN_SUBCOMMAND.matcher(String.valueOf(ex.getMessage()));
        if (helpFor.matches()) { // "kubeloop help X": picocli's help command names the parent
            return unknownCommand(cmd.getCommandSpec(), helpFor.group(1));
        }
        // An unknown flag comes first: picocli may report a missing parameter instead when the flag took its place.
        List<String> unmatched = ex instanceof CommandLine.UnmatchedArgumentException u
                ? u.getUnmatched()
                : cmd.getParseResult() == null
                        ? List.of()
                        : cmd.getParseResult().unmatched();
        if (unmatched.isEmpty()) {
            return new Usage(ex.getMessage(), List.of());
        }
        String first = unmatched.getFirst();
        if (first.startsWith("-") && first.length() > 1) {
            return unknownFlag(cmd.getCommandSpec(), first);
        }
        if (!cmd.getSubcommands().isEmpty()) {
            return unknownCommand(cmd.getCommandSpec(), first);
        }
        return new Usage("unexpected arguments: " + unmatched, List.of());
    }

    private static Usage unknownCommand(CommandSpec spec, String typed) {
        List<String> names = spec.subcommands().values().stream()
                .map(c -> c.getCommandSpec())
                .filter(s -> !s.usageMessage().hidden())
                .map(CommandSpec::name)
                .distinct()
                .toList();
        return new Usage(
                "unknown command \"" + typed + "\" for \"" + spec.qualifiedName() + "\"", similar(typed, names));
    }

    private static Usage unknownFlag(CommandSpec spec, String typed) {
        String flag = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        if (!flag.startsWith("--")) { // pflag's wording for a short flag; too short to suggest from
            return new Usage("unknown shorthand flag: '" + flag.charAt(1) + "' in " + typed, List.of());
        }
        List<String> names = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                for (String name : o.names()) {
                    if (name.startsWith("--") && !names.contains(name)) {
                        names.add(name);
                    }
                }
            }
        }
        String bare = flag.substring(2);
        return new Usage(
                "unknown flag: " + flag,
                similar(bare, names.stream().map(n -> n.substring(2)).toList()).stream()
                        .map(n -> "--" + n)
                        .toList());
    }

    /** Cobra's suggestions: within {@link #MAX_DISTANCE} edits (ignoring case), or a name that starts with it. */
    static List<String> similar(String typed, List<String> names) {
        String t = typed.toLowerCase(Locale.ROOT);
        return names.stream()
                .filter(n -> {
                    String name = n.toLowerCase(Locale.ROOT);
                    return distance(t, name) <= MAX_DISTANCE || (!t.isEmpty() && name.startsWith(t));
                })
                .toList();
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
