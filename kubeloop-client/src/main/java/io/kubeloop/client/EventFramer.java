package io.kubeloop.client;

import java.io.IOException;
import java.io.InputStream;

/**
 * Cuts a watch stream into its events: successive top-level JSON objects (the API server ends each with a
 * newline; any whitespace, or none, between them is accepted). Bytes are read into one reusable buffer and
 * scanned once for the object's end (brace depth outside strings, escapes honoured); the JSON itself is not
 * validated here — the event's parser does that.
 *
 * <p>After {@link #next()} returns true, {@link #buffer()} holds the event at {@link #offset()} for
 * {@link #length()} bytes, valid until the next call. The buffer grows to the largest event seen and
 * drops back to its initial size after an event larger than {@link #KEEP_MAX}.
 *
 * <p>Not thread-safe: owned by the watch's consumer thread.
 */
final class EventFramer {

    static final int INITIAL = 64 * 1024;
    /** A buffer grown beyond this is replaced by a fresh small one once the big event is consumed. */
    static final int KEEP_MAX = 4 * 1024 * 1024;

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
     * Reads until the next event is complete.
     *
     * @return true with the event in {@link #buffer()}, false when the stream ended between events
     * @throws IOException when reading fails
     * @throws IllegalArgumentException when the stream holds something other than objects, or ends inside one
     */
    boolean next() throws IOException {
        while (true) {
            if (scanAvailable()) {
                return true;
            }
            makeRoom();
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                if (frameStart >= 0) {
                    throw new IllegalArgumentException("the stream ended inside an event");
                }
                return false;
            }
            limit += n;
        }
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

    /** Scans buf[scan, limit); true when an event ended there. */
    private boolean scanAvailable() {
        byte[] b = buf;
        int i = scan;
        int end = limit;
        while (i < end) {
            byte c = b[i];
            if (frameStart < 0) {
                if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                    i++;
                    continue;
                }
                if (c != '{') {
                    throw new IllegalArgumentException("expected '{' but got '" + (char) (c & 0xff) + "'");
                }
                frameStart = i;
                depth = 1;
                i++;
                continue;
            }
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
