package io.kubeloop.client;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Cuts a watch stream into its events: successive top-level JSON objects. The API server writes each event
 * as one line (compact JSON, which cannot hold a raw newline), so {@link #next()} offers the bytes up to the
 * next newline, found eight bytes at a time. The caller parses that candidate and reports where the object
 * ended with {@link #consumed} (anything after it on the line becomes the next candidate); when the
 * candidate ends inside the object (an event spread over several lines), the caller asks for
 * {@link #rescan()}, which finds the object's true end by brace depth outside strings, escapes honoured.
 * Any whitespace, or none, between events is accepted. The JSON itself is validated by the caller's parser.
 *
 * <p>After {@link #next()} or {@link #rescan()} returns, {@link #buffer()} holds the candidate at
 * {@link #offset()} for {@link #length()} bytes, valid until the next call. The buffer grows to the largest event seen and
 * drops back to its initial size after an event larger than {@link #KEEP_MAX}.
 *
 * <p>Not thread-safe: owned by the watch's consumer thread.
 */
final class EventFramer {

    static final int INITIAL = 64 * 1024;
    /** A buffer grown beyond this is replaced by a fresh small one once the big event is consumed. */
    static final int KEEP_MAX = 4 * 1024 * 1024;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final InputStream in;
    private final int initialSize;
    private byte[] buf;
    /** buf[0, limit) holds bytes read; scanning continues at {@code scan}. */
    private int limit;
    private int scan;
    /** Start of the event being scanned, or -1 between events. */
    private int frameStart = -1;
    private int depth;
    private boolean inString;
    private boolean escaped;
    private int offset;
    private int length;

    EventFramer(InputStream in) {
        this(in, INITIAL);
    }

    EventFramer(InputStream in, int initialSize) {
        this.in = in;
        this.initialSize = initialSize;
        this.buf = new byte[initialSize];
    }

    /**
     * Offers the next event candidate: from the next non-whitespace byte to the next newline (or to the end
     * of the stream).
     *
     * @return true with the candidate in {@link #buffer()}, false when the stream ended between events
     * @throws IOException when reading fails
     * @throws IllegalArgumentException when the next event does not start with '{'
     */
    boolean next() throws IOException {
        while (true) {
            while (scan < limit && isSpace(buf[scan])) {
                scan++;
            }
            if (scan < limit) {
                break;
            }
            if (!fill()) {
                return false;
            }
        }
        if (buf[scan] != '{') {
            throw new IllegalArgumentException("expected '{' but got '" + (char) (buf[scan] & 0xff) + "'");
        }
        frameStart = scan;
        int searched = scan + 1;
        while (true) {
            int nl = indexOfNewline(buf, searched, limit);
            if (nl >= 0) {
                offset = frameStart;
                length = nl - frameStart;
                scan = nl + 1;
                frameStart = -1;
                return true;
            }
            searched = limit - frameStart; // relative: fill() may move the frame to the buffer's start
            if (!fill()) {
                offset = frameStart;
                length = limit - frameStart;
                scan = limit;
                frameStart = -1;
                return true;
            }
            searched += frameStart;
        }
    }

    /** The candidate's object ended at {@code end} (an index into {@link #buffer()}): continue after it. */
    void consumed(int end) {
        scan = end;
    }

    /**
     * The candidate offered last ended inside its object: finds the object's true end, reading more as needed,
     * and offers exactly the object.
     *
     * @throws IOException when reading fails
     * @throws IllegalArgumentException when the stream ends inside the object
     */
    void rescan() throws IOException {
        frameStart = offset;
        scan = offset + 1;
        depth = 1;
        inString = false;
        escaped = false;
        while (!scanAvailable()) {
            if (!fill()) {
                throw new IllegalArgumentException("the stream ended inside an event");
            }
        }
    }

    /** Makes room and reads once; false at the end of the stream. Keeps bytes from the frame start or scan. */
    private boolean fill() throws IOException {
        makeRoom();
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            return false;
        }
        limit += n;
        return true;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /** Index of the first '\n' in b[from, to), or -1; eight bytes per step (the lowest zero-byte flag is exact). */
    static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(b, i) ^ NEWLINES;
            long found = (v - LOW_BITS) & ~v & HIGH_BITS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    byte[] buffer() {
        return buf;
    }

    int offset() {
        return offset;
    }

    int length() {
        return length;
    }

    /** Scans buf[scan, limit) inside the frame at frameStart; true (and the frame offered) when the object ended there. */
    private boolean scanAvailable() {
        byte[] b = buf;
        int i = scan;
        int end = limit;
        while (i < end) {
            byte c = b[i];
            if (inString) {
                if (escaped) {
                    escaped = false; // the escaped byte, whatever it is
                    i++;
                    continue;
                }
                while (i < end && (c = b[i]) != '"' && c != '\\') {
                    i++; // plain string bytes (UTF-8 continuation bytes are never '"' or '\\')
                }
                if (i == end) {
                    break;
                }
                if (c == '\\') {
                    escaped = true;
                } else {
                    inString = false;
                }
                i++;
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                offset = frameStart;
                length = i + 1 - frameStart;
                frameStart = -1;
                scan = i + 1;
                return true;
            }
            i++;
        }
        scan = i;
        return false;
    }

    /** Drops consumed bytes and makes sure there is space to read into. */
    private void makeRoom() {
        int keep = frameStart >= 0 ? frameStart : scan;
        int pending = limit - keep;
        boolean shrink = buf.length > KEEP_MAX && pending < initialSize / 2;
        if (keep > 0 || shrink) {
            byte[] target = shrink ? new byte[initialSize] : buf;
            System.arraycopy(buf, keep, target, 0, pending);
            buf = target;
            limit = pending;
            scan -= keep;
            if (frameStart >= 0) {
                frameStart -= keep;
            }
        }
        if (limit == buf.length) {
            byte[] bigger = new byte[buf.length * 2];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
    }
}
