package io.kubeloop.cli;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.Causes;
import io.kubeloop.api.errors.UnauthorizedException;
import picocli.CommandLine;

/**
 * Turns a failed command into one line on stderr and exit code 1, with kubectl's wording for server
 * errors ({@code Error from server (NotFound): ...}, {@code error: You must be logged in to the server
 * (Unauthorized)}). Stack traces only with {@code --debug} or {@code -v 9}.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parsed) {
        var err = cmd.getErr();
        err.println(describe(ex));
        if (wantsTraces(cmd)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    /** The one-line description of a failure. */
    static String describe(Throwable ex) {
        ApiException api = find(ex, ApiException.class);
        if (api instanceof UnauthorizedException) {
            return "error: You must be logged in to the server (Unauthorized)";
        }
        if (api != null && api == ex) {
            String reason = api.reason().isEmpty() ? "HTTP " + api.code() : api.reason();
            return "Error from server (" + reason + "): " + api.getMessage();
        }
        String message = ex.getMessage();
        if (message == null || message.isBlank()) {
            message = ex.getClass().getSimpleName();
        }
        return "error: " + message.lines().findFirst().orElse(message);
    }

    private static <T extends Throwable> T find(Throwable ex, Class<T> type) {
        return Causes.find(ex, type).orElse(null);
    }

    private static boolean wantsTraces(CommandLine cmd) {
        Object command = cmd.getCommand();
        return command instanceof ConnectedCommand sc && sc.connection().traces();
    }
}
