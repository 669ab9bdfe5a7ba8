package io.kubeloop.client.config;

import java.nio.file.Path;

/**
 * A kubeconfig (or in-cluster service account) cannot be used: a file is missing or unreadable,
 * YAML is malformed, a field is invalid, or the selected context, cluster or user does not exist.
 *
 * <p>The message is one line naming the file and the field, e.g.
 * {@code kubeconfig /home/u/.kube/config: users[0].user.client-key-data: not valid base64}.
 */
public class KubeConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An exception with the given one-line message. */
    public KubeConfigException(String message) {
        super(message);
    }

    /** An exception with the given one-line message and cause. */
    public KubeConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code kubeconfig <file>: <detail>}. */
    static KubeConfigException in(Path file, String detail) {
        return new KubeConfigException("kubeconfig " + file + ": " + detail);
    }

    /** {@code kubeconfig <file>: <detail>} with a cause. */
    static KubeConfigException in(Path file, String detail, Throwable cause) {
        return new KubeConfigException("kubeconfig " + file + ": " + detail, cause);
    }
}
