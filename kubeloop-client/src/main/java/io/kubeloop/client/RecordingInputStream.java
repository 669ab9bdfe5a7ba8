package io.kubeloop.client;

import io.kubeloop.api.internal.DynamicObjectReader;
import java.io.IOException;
import java.io.InputStream;

/**
 * An InputStream that keeps what it hands out: every byte read through it is also appended to one growable
 * buffer, from a {@link #keepFrom pinned} stream position on, so a parser reading this stream can have the
 * exact bytes of the value it just parsed ({@link #bytes()}, indexed by stream position minus
 * {@link #position()}; the array and the position change as the stream is read). Bytes before the pin are dropped when room is needed. The buffer grows to the
 * largest span kept and drops back to its initial size once a span larger than {@link #KEEP_MAX} is released.
 *
 * <p>Not thread-safe: owned by the one thread that reads (the watch's consumer); {@link #close()} may come
 * from any thread and only closes the underlying stream.
 */
final class RecordingInputStream extends InputStream implements DynamicObjectReader.Source {

    static final int INITIAL = 64 * 1024;
    /** A buffer grown beyond this is replaced by a fresh small one when the span it held is released. */
    static final int KEEP_MAX = 4 * 1024 * 1024;

    private final InputStream in;
    private final int initialSize;
    private byte[] buf;
    /** Stream position of buf[0]. */
    private long bufferPosition;
    /** buf[0, count) holds the bytes from bufferPosition on. */
    private int count;
    /** Stream position from which bytes must be kept; bufferPosition <= pin <= bufferPosition + count. */
    private long pin;

    RecordingInputStream(InputStream in) {
        this(in, INITIAL);
    }

    RecordingInputStream(InputStream in, int initialSize) {
        this.in = in;
        this.initialSize = initialSize;
        this.buf = new byte[initialSize];
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            ensureRoom(1);
            buf[count++] = (byte) b;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            ensureRoom(n);
            System.arraycopy(b, off, buf, count, n);
            count += n;
        }
        return n;
    }

    /** Bytes before stream position {@code position} are no longer needed. */
    void keepFrom(long position) {
        if (position < pin || position > bufferPosition + count) {
            throw new IllegalArgumentException("position " + position + " is outside the kept bytes [" + pin + ", "
                    + (bufferPosition + count) + "]");
        }
        pin = position;
    }

    /** The kept bytes; valid until the next read. */
    @Override
    public byte[] bytes() {
        return buf;
    }

    /** The stream position of {@code bytes()[0]}. */
    @Override
    public long position() {
        return bufferPosition;
    }

    private void ensureRoom(int n) {
        if (count + n <= buf.length) {
            return;
        }
        int drop = (int) (pin - bufferPosition);
        int kept = count - drop;
        int needed = kept + n;
        byte[] target = buf;
        if (needed > buf.length) {
            target = new byte[Math.max(needed, buf.length * 2)];
        } else if (buf.length > KEEP_MAX && needed <= initialSize) {
            target = new byte[initialSize];
        }
        System.arraycopy(buf, drop, target, 0, kept);
        buf = target;
        bufferPosition = pin;
        count = kept;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
