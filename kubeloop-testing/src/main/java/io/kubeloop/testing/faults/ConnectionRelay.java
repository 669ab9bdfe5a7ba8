package io.kubeloop.testing.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One connection of {@link FaultInjectingProxy}'s relay mode: TLS with the client, whose ALPN offer
 * chooses {@code h2} or {@code http/1.1}; TLS to the server offering only that protocol; then the
 * bytes relayed raw both ways, each direction by a thread of its own, with no parsing, until either
 * side ends the connection — or until it is {@linkplain #freeze() frozen}.
 *
 * <p><b>Frozen</b>: from the next chunk read on, nothing more is written in either direction (a chunk
 * already being written when the freeze comes still arrives whole). Both sides are still read, and
 * what arrives is dropped: reading the client tells when it hangs up, which ends the connection;
 * the server's closing its side is not passed on. A connection frozen during its TLS handshake
 * completes the handshake and is never connected to the server.
 *
 * <p><b>Thread safety</b>: {@link #run} on the connection's thread (which starts the other direction's
 * thread); {@link #freeze()} from any thread, idempotent.
 */
final class ConnectionRelay {

    private static final String[] PROTOCOLS = {"h2", "http/1.1"};

    private final long number;
    private final Socket plain;
    private final SSLContext serverTls;
    private final URI upstream;
    private final SSLContext upstreamTls;
    private final Set<Socket> open;
    private final Consumer<ConnectionRelay> onFrozen;
    private final AtomicBoolean frozen = new AtomicBoolean();

    /**
     * @param number the connection's place among those accepted, from 1
     * @param plain the accepted TCP connection
     * @param open the proxy's open sockets, reset when it closes; the server connection is added while open
     * @param onFrozen told once, on the freezing thread, when the connection freezes
     */
    ConnectionRelay(
            long number,
            Socket plain,
            SSLContext serverTls,
            URI upstream,
            SSLContext upstreamTls,
            Set<Socket> open,
            Consumer<ConnectionRelay> onFrozen) {
        this.number = number;
        this.plain = plain;
        this.serverTls = serverTls;
        this.upstream = upstream;
        this.upstreamTls = upstreamTls;
        this.open = open;
        this.onFrozen = onFrozen;
    }

    /**
     * Freezes the connection (see the class comment).
     *
     * @return true when this call froze it, false when it was frozen already
     */
    boolean freeze() {
        if (frozen.compareAndSet(false, true)) {
            onFrozen.accept(this);
            return true;
        }
        return false;
    }

    /**
     * Relays the connection until it ends.
     *
     * @param plan chooses the connection's fault once the protocol is known
     * @param negotiated told the connection once its TLS handshake with the client is done
     * @param chosen told the connection's fault before any byte is relayed
     * @throws IOException when the handshake with either side fails, or the server does not accept the
     *         client's protocol; the caller closes the client's connection
     */
    void run(
            ConnectionPlan plan,
            Consumer<ConnectionPlan.Connection> negotiated,
            BiConsumer<ConnectionPlan.Connection, ConnectionFault> chosen)
            throws IOException {
        SSLSocket client =
                (SSLSocket) serverTls.getSocketFactory().createSocket(plain, null, plain.getLocalPort(), false);
        client.setUseClientMode(false);
        SSLParameters params = client.getSSLParameters();
        params.setApplicationProtocols(PROTOCOLS); // the first the client offers, h2 before http/1.1
        client.setSSLParameters(params);
        client.startHandshake();
        String alpn = client.getApplicationProtocol();
        String protocol = alpn == null || alpn.isEmpty() ? "http/1.1" : alpn;
        ConnectionPlan.Connection connection = new ConnectionPlan.Connection(number, protocol);
        negotiated.accept(connection);
        if (frozen.get()) {
            drain(client.getInputStream()); // until the client hangs up
            return;
        }
        try (SSLSocket up =
                (SSLSocket) upstreamTls.getSocketFactory().createSocket(upstream.getHost(), upstream.getPort())) {
            open.add(up);
            Thread timer = null;
            Thread down = null;
            try {
                SSLParameters upParams = up.getSSLParameters();
                upParams.setApplicationProtocols(new String[] {protocol});
                up.setSSLParameters(upParams);
                up.startHandshake();
                String upAlpn = up.getApplicationProtocol();
                if (!protocol.equals(upAlpn == null || upAlpn.isEmpty() ? "http/1.1" : upAlpn)) {
                    throw new IOException("the server did not accept " + protocol + " (ALPN: " + upAlpn + ")");
                }
                ConnectionFault fault = plan.choose(connection);
                chosen.accept(connection, fault);
                long limit = Long.MAX_VALUE;
                if (fault instanceof ConnectionFault.Freeze f) {
                    if (f.afterBytes() >= 0) {
                        limit = f.afterBytes();
                    }
                    if (f.after() != null) {
                        timer = Thread.ofVirtual()
                                .name("fault-proxy-freeze-timer")
                                .start(() -> freezeAfter(f.after()));
                    }
                    if (limit == 0) {
                        freeze();
                    }
                }
                long serverBytes = limit;
                InputStream upIn = up.getInputStream();
                down = Thread.ofVirtual()
                        .name("fault-proxy-relay-down")
                        .start(() -> serverToClient(upIn, client, serverBytes));
                clientToServer(client.getInputStream(), up.getOutputStream());
            } finally {
                open.remove(up);
                ProxiedHttp.reset(up); // ends the other direction's read
                if (timer != null) {
                    timer.interrupt();
                }
                if (down != null) {
                    try {
                        down.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    private void freezeAfter(Duration after) {
        try {
            Thread.sleep(after);
            freeze();
        } catch (InterruptedException e) {
            // the connection ended first
        }
    }

    /** Client to server; returns when the client hung up, or when the connection broke while not frozen. */
    private void clientToServer(InputStream in, OutputStream out) {
        byte[] buffer = new byte[16 * 1024];
        try {
            for (; ; ) {
                int n = in.read(buffer);
                if (n < 0) {
                    return; // the client hung up
                }
                if (!frozen.get()) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // the client's side broke, or the server's while relaying: the connection is over
        }
    }

    /**
     * Server to client, {@code limit} bytes before the freeze; when the server ends or breaks its side
     * of a connection not frozen, closes the client's (a graceful TCP end), which also ends
     * {@link #clientToServer}. A frozen connection's end is not passed on.
     */
    private void serverToClient(InputStream in, SSLSocket client, long limit) {
        byte[] buffer = new byte[16 * 1024];
        long left = limit;
        try {
            OutputStream out = client.getOutputStream();
            for (; ; ) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                if (frozen.get()) {
                    continue; // dropped
                }
                int pass = (int) Math.min(n, left);
                if (pass > 0) {
                    out.write(buffer, 0, pass);
                    out.flush();
                    left -= pass;
                }
                if (left == 0) {
                    freeze();
                }
            }
        } catch (IOException e) {
            // the server's side broke (or the client's, which the other direction sees too)
        }
        if (!frozen.get()) {
            ProxiedHttp.close(plain);
        }
    }

    /** Reads and drops until the end of the stream or an error. */
    private static void drain(InputStream in) {
        byte[] buffer = new byte[16 * 1024];
        try {
            while (in.read(buffer) >= 0) {
                // dropped
            }
        } catch (IOException e) {
            // broken: same as a hang-up
        }
    }
}
