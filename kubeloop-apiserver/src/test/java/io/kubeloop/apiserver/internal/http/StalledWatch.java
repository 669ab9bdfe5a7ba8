package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import tools.jackson.databind.JsonNode;

/**
 * A watch over its own TLS connection with a tiny receive window whose response nobody reads until
 * {@link #readToEnd()}: the server's writes to it block as soon as the kernel's buffers are full (test
 * helper).
 */
final class StalledWatch implements AutoCloseable {

    private final SSLSocket socket;

    private StalledWatch(SSLSocket socket) {
        this.socket = socket;
    }

    /** Sends {@code GET path} (a watch) with the server's token and reads nothing of the answer. */
    static StalledWatch open(EmbeddedApiServer server, String path) throws IOException {
        SSLSocket s = (SSLSocket)
                server.clientConfig().sslContext().getSocketFactory().createSocket();
        s.setReceiveBufferSize(4_096);
        s.connect(new InetSocketAddress(server.url().getHost(), server.url().getPort()), 5_000);
        s.startHandshake();
        OutputStream out = s.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + server.url().getHost() + "\r\nAuthorization: Bearer "
                        + server.token() + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return new StalledWatch(s);
    }

    /** True while this side has not closed the connection. */
    boolean isOpen() {
        return !socket.isClosed();
    }

    /**
     * Reads the whole response until the server ends it (at most 30 s without a byte) and returns the
     * events of its chunked body; fails unless the body ends with the terminating chunk.
     */
    List<JsonNode> readToEnd() throws IOException {
        socket.setSoTimeout(30_000);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        socket.getInputStream().transferTo(raw);
        byte[] bytes = raw.toByteArray();
        String head = new String(bytes, 0, Math.min(bytes.length, 512), StandardCharsets.ISO_8859_1);
        assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("transfer-encoding: chunked");
        int pos = indexOf(bytes, "\r\n\r\n", 0) + 4;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            int eol = indexOf(bytes, "\r\n", pos);
            int size = Integer.parseInt(new String(bytes, pos, eol - pos, StandardCharsets.US_ASCII).trim(), 16);
            if (size == 0) {
                break; // the terminating chunk: the server ended the response normally
            }
            body.write(bytes, eol + 2, size);
            pos = eol + 2 + size + 2;
        }
        List<JsonNode> events = new ArrayList<>();
        for (String line : body.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                events.add(KubeJson.mapper().readTree(line));
            }
        }
        return events;
    }

    private static int indexOf(byte[] bytes, String ascii, int from) {
        byte[] what = ascii.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = from; i <= bytes.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (bytes[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("no " + ascii.strip() + " after byte " + from + " of " + bytes.length);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
