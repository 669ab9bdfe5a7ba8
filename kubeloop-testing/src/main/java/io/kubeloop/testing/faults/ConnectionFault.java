package io.kubeloop.testing.faults;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link FaultInjectingProxy}'s relay mode ({@link FaultInjectingProxy#startRelay}) does to one
 * connection. The relay sees bytes, not requests, so its faults are of the connection: every request
 * multiplexed on it (HTTP/2) meets them at once.
 */
public sealed interface ConnectionFault {

    /** A short name for counts and messages. */
    String kind();

    /** Relay every byte both ways for the connection's whole life. */
    record Pass() implements ConnectionFault {
        @Override
        public String kind() {
            return "pass";
        }
    }

    /**
     * Relay until {@code afterBytes} bytes went from the server to the client, or until {@code after}
     * has passed since the connection was accepted, whichever comes first; then freeze the connection
     * as {@link FaultInjectingProxy#freezeAll()} does: from then on nothing passes in either direction
     * (not a byte, not the server's closing the connection), and the proxy never closes it; it lets go
     * of it only when the client hangs up (or the proxy is closed). What a client meets when its
     * peer vanished without a reset (a half-open TCP connection) or a proxy or load balancer stopped
     * forwarding; over HTTP/2 every stream of the connection goes silent together. A client notices
     * only through its own timeouts. The byte count is of the relayed protocol's bytes (HTTP/2 frames,
     * or HTTP/1.1 heads and bodies), after TLS.
     *
     * @param afterBytes server-to-client bytes relayed before the freeze, &ge; 0; negative for no byte limit
     * @param after from the accepted connection to the freeze, positive; null for no time limit
     */
    record Freeze(long afterBytes, Duration after) implements ConnectionFault {
        public Freeze {
            if (afterBytes < 0 && after == null) {
                throw new IllegalArgumentException("a freeze needs a byte limit (>= 0) or a time limit");
            }
            if (after != null && !after.isPositive()) {
                throw new IllegalArgumentException("after must be positive, got " + after);
            }
        }

        /** Freezes after {@code bytes} bytes from the server, &ge; 0 (0: before the first). */
        public static Freeze afterBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes must not be negative, got " + bytes);
            }
            return new Freeze(bytes, null);
        }

        /** Freezes {@code after} the connection was accepted. */
        public static Freeze after(Duration after) {
            return new Freeze(-1, Objects.requireNonNull(after, "after"));
        }

        @Override
        public String kind() {
            return "freeze";
        }
    }
}
