package io.kubeloop.codegen;

/**
 * Code generation cannot go on: an input CRD or Java type that cannot be mapped, with the reason and
 * where (file, type, property) in the message.
 */
public class CodegenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public CodegenException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public CodegenException(String message, Throwable cause) {
        super(message, cause);
    }
}
