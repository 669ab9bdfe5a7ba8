package io.kubeloop.client.internal.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * A response body framed inside a connection's stream (chunked, or of a known length): subclasses
 * implement the bulk {@link #read(byte[], int, int)}; single-byte reads go through it, and
 * {@link #close()} closes the connection's stream.
 *
 * <p>Not thread-safe, as any stream, except that {@code close()} may come from another thread to end a
 * blocked read.
 */
abstract class BodyInputStream extends InputStream {

    /** The connection's stream, positioned at the body. */
    protected final InputStream in;

    BodyInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public abstract int read(byte[] b, int off, int len) throws IOException;

    @Override
    public void close() throws IOException {
        in.close();
    }
}
