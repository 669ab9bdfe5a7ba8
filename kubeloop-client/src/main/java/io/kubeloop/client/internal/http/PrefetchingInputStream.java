package io.kubeloop.client.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a source stream ahead on a thread of its own, so that what reading the source costs — for a
 * TLS socket, decrypting — overlaps with what the consumer does with the bytes (decoding watch
 * events). Bytes travel in chunks of up to {@value #CHUNK} bytes through a queue of {@value #DEPTH};
 * chunk buffers are recycled, so a long stream allocates a fixed handful of them.
 *
 * <p>Everything the source produced reaches the consumer in order, then its end or the
 * {@link IOException} that ended it. {@link #close()} closes the source (which ends a blocked read
 * of a socket) and stops the reader; later reads see end of stream.
 *
 * <p>Thread safety: one consuming thread, as any stream; {@code close()} may come from any thread.
 * The reader thread is a virtual thread named {@code kubeloop-stream-reader}; it ends with the
 * source.
 */
final class PrefetchingInputStream extends InputStream {

    static final int CHUNK = 64 * 1024;
    static final int DEPTH = 4;

    /** A filled buffer, the source's end ({@code n < 0}) or its failure. */
    private record Chunk(byte[] buffer, int n, IOException failure) {}

    private static final Chunk END = new Chunk(null, -1, null);

    private final InputStream source;
    private final BlockingQueue<Chunk> filled = new ArrayBlockingQueue<>(DEPTH);
    private final BlockingQueue<byte[]> empty = new ArrayBlockingQueue<>(DEPTH + 2);
    private final Thread reader;
    private volatile boolean closed;

    private byte[] current;
    private int pos;
    private int limit;
    private boolean ended;

    PrefetchingInputStream(InputStream source) {
        this.source = source;
        this.reader = Thread.ofVirtual().name("kubeloop-stream-reader").start(this::pump);
    }

    private void pump() {
        try {
            while (!closed) {
                byte[] b = empty.poll();
                if (b == null) {
                    b = new byte[CHUNK];
                }
                int n = source.read(b, 0, b.length);
                if (n < 0) {
                    filled.put(END);
                    return;
                }
                if (n > 0) {
                    filled.put(new Chunk(b, n, null));
                }
            }
        } catch (IOException e) {
            if (!closed) {
                offerQuietly(new Chunk(null, -1, e));
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private void offerQuietly(Chunk c) {
        try {
            filled.put(c);
        } catch (InterruptedException e) {
            // closed meanwhile: nobody reads any more
        }
    }

    @Override
    public int read() throws IOException {
        if (!ensure()) {
            return -1;
        }
        return current[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!ensure()) {
            return -1;
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public int available() {
        return current == null ? 0 : limit - pos;
    }

    /** True when bytes are ready in {@code current}; false at the end. */
    private boolean ensure() throws IOException {
        if (closed) {
            return false;
        }
        if (current != null && pos < limit) {
            return true;
        }
        if (ended) {
            return false;
        }
        if (current != null) {
            empty.offer(current);
            current = null;
        }
        Chunk c;
        try {
            c = filled.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the stream");
        }
        if (c.n() < 0 || closed) {
            ended = true;
            if (c.failure() != null) {
                throw new IOException(c.failure().getMessage(), c.failure());
            }
            return false;
        }
        current = c.buffer();
        pos = 0;
        limit = c.n();
        return true;
    }

    /** Whether the reader thread still runs (for tests). */
    boolean readerAlive() {
        return reader.isAlive();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            source.close();
        } finally {
            reader.interrupt();
            filled.clear();
            filled.offer(END); // wakes a consumer blocked in take()
        }
    }
}
