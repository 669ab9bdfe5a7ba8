package io.kubeloop.testing.faults;

/**
 * Chooses the {@link ConnectionFault} for each connection the proxy's relay mode accepts, once its
 * TLS handshake has chosen the protocol. Called from the proxy's connection threads:
 * implementations must be thread-safe.
 */
@FunctionalInterface
public interface ConnectionPlan {

    /**
     * The fault for one connection.
     *
     * @param connection the connection
     * @return what to do with it
     */
    ConnectionFault choose(Connection connection);

    /**
     * One connection as the relay saw it.
     *
     * @param number its place among the connections the proxy accepted, from 1
     * @param protocol what ALPN chose with the client and then with the server: {@code h2} or
     *        {@code http/1.1} (also for a client that offered no ALPN)
     */
    record Connection(long number, String protocol) {}

    /** Never a fault: every connection is relayed whole (until {@link FaultInjectingProxy#freezeAll()}). */
    static ConnectionPlan none() {
        return connection -> new ConnectionFault.Pass();
    }
}
