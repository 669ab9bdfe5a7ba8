package io.kubeloop.client.discovery;

/**
 * Discovery could not produce an answer: a discovery document was malformed, a group version was
 * reported stale by aggregated discovery, or (as {@link GroupDiscoveryFailedException}) some group
 * versions could not be read.
 *
 * <p>HTTP failures of the top-level documents ({@code /api}, {@code /apis}, {@code /version}) are
 * not wrapped: they surface as the transport's {@code ApiException} or {@code TransportException}.
 */
public sealed class DiscoveryException extends RuntimeException permits GroupDiscoveryFailedException {

    public DiscoveryException(String message) {
        super(message);
    }

    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
