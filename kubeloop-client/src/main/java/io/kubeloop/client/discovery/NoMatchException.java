package io.kubeloop.client.discovery;

/**
 * The server has no resource or kind matching the input. For a user argument the message is
 * kubectl's: {@code the server doesn't have a resource type "foo"}.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/api/meta#NoResourceMatchError">meta.NoResourceMatchError</a>
 */
public final class NoMatchException extends RestMappingException {

    public NoMatchException(String input, String message) {
        super(input, message);
    }
}
