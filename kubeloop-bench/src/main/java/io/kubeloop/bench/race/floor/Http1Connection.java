package io.kubeloop.bench.race.floor;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 connection over TLS, kept alive: a request is written in one go (head and body from
 * prepared bytes), its response read by {@code Content-Length} or chunks. A watch takes a connection of
 * its own and reads the chunked body as a stream ({@link #stream}). Nothing else: no redirects, no
 * compression, no pipelining; a connection the server closed is opened again for the next request.
 *
 * <p>Not thread-safe: one per thread.
 */
final class Http1Connection implements AutoCloseable {

    /** A response: status and body bytes. */
    record Response(int status, byte[] body) {}

    private final SSLSocketFactory tls;
    private final String host;
    private final int port;
    private final byte[] authorization;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream(512);

    Http1Connection(SSLSocketFactory tls, String host, int port, String authorization) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.authorization = ("Authorization: " + authorization + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends a request and reads its whole response. */
    Response exchange(String method, String target, String contentType, byte[] body) throws IOException {
        for (int attempt = 0; ; attempt++) {
            boolean fresh = socket == null;
            if (fresh) {
                open();
            }
            try {
                write(method, target, contentType, body);
                return read();
            } catch (IOException e) {
                close();
                if (fresh || attempt > 0) {
                    throw e;
                }
                // a kept-alive connection the server had closed: once more on a new one
            }
        }
    }

    /**
     * Sends a GET whose answer is a stream of chunks (a watch) and hands its body to {@code lines}, one
     * newline-terminated JSON line at a time, until the stream ends.
     */
    void stream(String target, LineHandler lines) throws IOException {
        if (socket == null) {
            open();
        }
        write("GET", target, null, null);
        int status = statusLine();
        boolean chunked = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            if (h.regionMatches(true, 0, "transfer-encoding:", 0, 18)
                    && h.toLowerCase().contains("chunked")) {
                chunked = true;
            }
        }
        if (status != 200 || !chunked) {
            throw new IOException("watch " + target + " answered " + status);
        }
        ByteArrayOutputStream pending = new ByteArrayOutputStream(8192);
        byte[] buf = new byte[65536];
        while (true) {
            int size = Integer.parseInt(line().split(";")[0].trim(), 16);
            if (size == 0) {
                line();
                return;
            }
            int left = size;
            while (left > 0) {
                int n = in.read(buf, 0, Math.min(buf.length, left));
                if (n < 0) {
                    throw new IOException("watch stream ended in a chunk");
                }
                left -= n;
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        if (pending.size() == 0) {
                            lines.line(buf, from, i - from);
                        } else {
                            pending.write(buf, from, i - from);
                            byte[] whole = pending.toByteArray();
                            pending.reset();
                            lines.line(whole, 0, whole.length);
                        }
                        from = i + 1;
                    }
                }
                pending.write(buf, from, n - from);
            }
            line(); // the chunk's CRLF
        }
    }

    /** Receives the lines of a stream. */
    @FunctionalInterface
    interface LineHandler {
        /** One line, without its newline, in {@code b[from, from + length)} (valid during the call only). */
        void line(byte[] b, int from, int length) throws IOException;
    }

    private void open() throws IOException {
        SSLSocket s = (SSLSocket) tls.createSocket(host, port);
        s.setTcpNoDelay(true);
        s.startHandshake();
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 65536);
        out = s.getOutputStream();
    }

    private void write(String method, String target, String contentType, byte[] body) throws IOException {
        head.reset();
        ascii(method);
        head.write(' ');
        ascii(target);
        ascii(" HTTP/1.1\r\nHost: ");
        ascii(host);
        ascii("\r\nAccept: application/json\r\n");
        head.write(authorization);
        if (body != null) {
            ascii("Content-Type: ");
            ascii(contentType);
            ascii("\r\nContent-Length: ");
            ascii(Integer.toString(body.length));
            ascii("\r\n");
        }
        ascii("\r\n");
        if (body != null) {
            head.write(body);
        }
        head.writeTo(out);
        out.flush();
    }

    private void ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            head.write(s.charAt(i));
        }
    }

    private Response read() throws IOException {
        int status = statusLine();
        long length = -1;
        boolean chunked = false;
        boolean closes = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).trim();
            String value = h.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.toLowerCase().contains("chunked");
            } else if (name.equalsIgnoreCase("connection")) {
                closes = value.equalsIgnoreCase("close");
            }
        }
        byte[] body;
        if (chunked) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16);
                    size > 0;
                    size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                all.write(in.readNBytes(size));
                line();
            }
            line();
            body = all.toByteArray();
        } else {
            body = in.readNBytes((int) Math.max(0, length));
        }
        if (closes) {
            close();
        }
        return new Response(status, body);
    }

    private int statusLine() throws IOException {
        String status = line();
        if (!status.startsWith("HTTP/1.1 ")) {
            throw new IOException("not an HTTP/1.1 response: " + status);
        }
        return Integer.parseInt(status.substring(9, 12));
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
    }
}
