package io.kubeloop.testing.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLSocket;

/**
 * The HTTP/1.1 wire work of the {@link FaultInjectingProxy}: reading a request's head, relaying a response body
 * with a cut or a stall where a {@link Fault} says, and writing the error replies and the expired watch it
 * injects. Stateless.
 */
final class ProxiedHttp {

    private ProxiedHttp() {}

    /** Returns when the client has hung up (or its connection broke): a request per connection, so nothing more is read. */
    static void awaitHangUp(SSLSocket client) {
        try {
            while (client.getInputStream().read() >= 0) {
                // nothing more is expected
            }
        } catch (IOException ignored) {
            // broken: same as a hang-up
        }
    }

    /** Relays {@code afterBytes} of the body, then nothing more either way until the client hangs up. */
    static void blackhole(InputStream upIn, OutputStream out, long afterBytes, CountDownLatch hungUp)
            throws IOException {
        byte[] buffer = new byte[8192];
        for (long left = afterBytes; left > 0; ) {
            int n = upIn.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                break; // the response ended first: its end is not relayed either
            }
            out.write(buffer, 0, n);
            out.flush();
            left -= n;
        }
        try {
            hungUp.await(); // closing the proxy resets the client's connection, which counts it down too
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Copies the response body, cutting or stalling where the fault says. */
    static void relay(InputStream upIn, OutputStream out, Socket plain, Fault fault) throws IOException {
        long limit = switch (fault) {
            case Fault.Cut c -> c.afterBytes();
            case Fault.Stall s -> s.afterBytes();
            default -> Long.MAX_VALUE;
        };
        long began = System.nanoTime();
        long notBeforeNanos = fault instanceof Fault.Cut c ? c.notBefore().toNanos() : 0;
        byte[] buffer = new byte[8192];
        long relayed = 0;
        boolean acted = false;
        for (; ; ) {
            int max = acted || limit - relayed >= buffer.length ? buffer.length : (int) Math.max(1, limit - relayed);
            int n = upIn.read(buffer, 0, max);
            if (n < 0) {
                out.flush();
                return;
            }
            out.write(buffer, 0, n);
            out.flush();
            relayed += n;
            if (!acted && relayed >= limit && System.nanoTime() - began >= notBeforeNanos) {
                acted = true;
                if (fault instanceof Fault.Cut) {
                    reset(plain);
                    return;
                }
                if (fault instanceof Fault.Stall s) {
                    try {
                        Thread.sleep(s.pause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    static void respond(OutputStream out, int code, String reason, String message, Long retryAfterSeconds)
            throws IOException {
        String details =
                retryAfterSeconds == null ? "" : ",\"details\":{\"retryAfterSeconds\":" + retryAfterSeconds + "}";
        byte[] body =
                ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                                + message + "\",\"reason\":\"" + reason + "\"" + details + ",\"code\":" + code + "}")
                        .getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + code + " " + reason + "\r\n"
                + "Content-Type: application/json\r\n"
                + (retryAfterSeconds == null ? "" : "Retry-After: " + retryAfterSeconds + "\r\n")
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    static void watchGone(OutputStream out) throws IOException {
        byte[] event = ("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                        + "\"status\":\"Failure\",\"message\":\"too old resource version (injected by the fault proxy)\","
                        + "\"reason\":\"Expired\",\"code\":410}}\n")
                .getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n" + Integer.toHexString(event.length) + "\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(event);
        out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads header lines up to the empty line; empty when the stream ended first. */
    static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (; ; ) {
            int b = in.read();
            if (b < 0) {
                return List.of();
            }
            if (b == '\n' && previous == '\r') {
                byte[] bytes = line.toByteArray();
                String text = new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
            previous = b;
        }
    }

    static String headerName(String line) {
        int colon = line.indexOf(':');
        return (colon < 0 ? line : line.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
    }

    static String headerValue(String line) {
        return line.substring(line.indexOf(':') + 1).trim();
    }

    static boolean isHopByHop(String name) {
        return name.equals("connection")
                || name.equals("keep-alive")
                || name.equals("proxy-connection")
                || name.equals("upgrade")
                || name.equals("http2-settings");
    }

    static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Closes at once; for a plain socket with a TCP reset (linger 0). */
    static void reset(Socket socket) {
        try {
            if (!(socket instanceof SSLSocket)) {
                socket.setSoLinger(true, 0);
            }
            socket.close();
        } catch (SocketException ignored) {
            // already closed
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
