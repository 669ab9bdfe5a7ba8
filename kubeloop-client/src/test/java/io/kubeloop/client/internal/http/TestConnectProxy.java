package io.kubeloop.client.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A minimal HTTP CONNECT proxy on 127.0.0.1 that records the targets it tunnels to. */
final class TestConnectProxy implements AutoCloseable {

    private final ServerSocket socket;
    private final List<String> targets = new CopyOnWriteArrayList<>();

    TestConnectProxy() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::acceptLoop);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    List<String> connectTargets() {
        return List.copyOf(targets);
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread.ofVirtual().start(() -> tunnel(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void tunnel(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            String head = readHead(in);
            String target = head.split(" ")[1];
            targets.add(target);
            int colon = target.lastIndexOf(':');
            try (Socket upstream =
                    new Socket(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)))) {
                client.getOutputStream()
                        .write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                client.getOutputStream().flush();
                Thread pump = Thread.ofVirtual().start(() -> copy(upstream, client));
                copy(client, upstream);
                pump.join();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // connection ended
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        while (!b.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("eof");
            }
            b.append((char) c);
        }
        return b.toString();
    }

    private static void copy(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // closed
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
