package io.kubeloop.apiserver.internal.storage.wal;

import java.io.OutputStream;

/**
 * Produces the content of a snapshot for {@link WriteAheadLog#checkpoint}: the caller's whole state
 * as of the checkpoint's sequence, in the caller's own format. The log frames and checksums the
 * bytes; it never interprets them.
 *
 * <p>Called once, on the thread that called {@code checkpoint}. The stream is buffered; the writer
 * must not close it (closing is ignored). I/O failures surface as unchecked exceptions
 * ({@link java.io.UncheckedIOException}, or Jackson 3's unchecked exceptions when writing JSON).
 */
@FunctionalInterface
public interface SnapshotWriter {

    /** Writes the state to {@code out}. */
    void write(OutputStream out);
}
