package io.kubeloop.client.internal.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The body of an HTTP/1.1 response sent with {@code Transfer-Encoding: chunked} (RFC 9112 §7.1):
 * reads chunk after chunk from the connection and returns only their data; chunk extensions and
 * trailer fields are read and dropped. End of stream after the last (zero-size) chunk and its
 * trailers; a connection that ends inside a chunk is an {@link EOFException}, never a silent
 * short body.
 *
 * <p>Invariant: {@code remaining} is the number of data bytes of the current chunk not yet
 * returned; 0 between chunks. A chunk's data is handed out as soon as it arrived: the line end
 * that follows it is consumed with the next size line, never waited for on its own.
 *
 * <p>Not thread-safe (one reader, as any stream); {@link #close()} closes the connection's stream
 * and may be called from another thread to end a blocked read.
 */
final class ChunkedInputStream extends BodyInputStream {

    private static final int MAX_LINE = 8192;

    private long remaining;
    private boolean inChunks;
    private boolean finished;

    /** @param in the connection's stream, positioned at the first chunk-size line */
    ChunkedInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (remaining == 0 && !nextChunk()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw new EOFException("the connection ended inside a chunk (" + remaining + " bytes missing)");
        }
        remaining -= n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(remaining, in.available());
    }

    /** Reads the next chunk-size line; false after the last chunk (its trailers consumed). */
    private boolean nextChunk() throws IOException {
        if (finished) {
            return false;
        }
        if (inChunks) {
            // the CRLF after the previous chunk's data; read only now, because servers (Jetty among
            // them) send it together with the next chunk's size line, not right after the data
            expectLineEnd();
        }
        inChunks = true;
        String line = readLine();
        int semicolon = line.indexOf(';');
        String hex = (semicolon >= 0 ? line.substring(0, semicolon) : line).strip();
        long size;
        try {
            size = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunk size line: " + abbreviate(line));
        }
        if (size < 0) {
            throw new IOException("malformed chunk size line: " + abbreviate(line));
        }
        if (size == 0) {
            while (!readLine().isEmpty()) {
                // trailer fields: dropped
            }
            finished = true;
            return false;
        }
        remaining = size;
        return true;
    }

    private void expectLineEnd() throws IOException {
        int cr = in.read();
        int lf = cr == '\r' ? in.read() : cr;
        if (lf != '\n') {
            throw new IOException("a chunk's data is not followed by CRLF");
        }
    }

    /** One CRLF- (or LF-) terminated line, without the terminator. */
    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder(16);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("the connection ended between chunks");
            }
            if (c == '\n') {
                int last = sb.length() - 1;
                if (last >= 0 && sb.charAt(last) == '\r') {
                    sb.setLength(last);
                }
                return sb.toString();
            }
            if (sb.length() == MAX_LINE) {
                throw new IOException("chunk line longer than " + MAX_LINE + " bytes");
            }
            sb.append((char) c);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
