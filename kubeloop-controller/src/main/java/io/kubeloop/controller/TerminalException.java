package io.kubeloop.controller;

import io.kubeloop.api.errors.Causes;
import java.io.Serial;

/**
 * A reconcile failure that retrying cannot fix (an invalid spec, a missing permission the user must
 * grant): the controller logs and counts it but does not requeue the request. The object is
 * reconciled again only when an event adds its request — typically after the user fixed it.
 *
 * <p>A reconciler may throw it directly or wrap it: an exception whose chain of causes contains a
 * {@code TerminalException} is terminal too (controller-runtime's {@code errors.Is(err,
 * TerminalError(nil))}).
 *
 * @see <a href="https://github.com/kubernetes-sigs/controller-runtime/blob/main/pkg/reconcile/reconcile.go">controller-runtime TerminalError</a>
 */
public class TerminalException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A terminal failure.
     *
     * @param message what is wrong, for the log
     */
    public TerminalException(String message) {
        super(message);
    }

    /**
     * A terminal failure caused by {@code cause}.
     *
     * @param message what is wrong, for the log
     * @param cause the underlying failure
     */
    public TerminalException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether {@code failure} or one of its causes is a {@code TerminalException} (cycles in the
     * cause chain are tolerated).
     *
     * @param failure what a reconcile threw
     * @return true if the failure is terminal
     */
    public static boolean isTerminal(Throwable failure) {
        return Causes.has(failure, TerminalException.class);
    }
}
