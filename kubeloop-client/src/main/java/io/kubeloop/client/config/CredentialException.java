package io.kubeloop.client.config;

/**
 * Credentials could not be obtained at request time: an exec credential plugin is missing, failed,
 * or printed an unusable answer; a token file cannot be read and no earlier token is known.
 *
 * <p>Thrown by {@link AuthProvider#authorization()} and by the TLS key manager that asks an exec
 * plugin for a client certificate. The message is one line naming the plugin or file.
 */
public class CredentialException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An exception with the given one-line message. */
    public CredentialException(String message) {
        super(message);
    }

    /** An exception with the given one-line message and cause. */
    public CredentialException(String message, Throwable cause) {
        super(message, cause);
    }
}
