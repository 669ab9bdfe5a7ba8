package io.kubeloop.client;

import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.TransportException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * Where a {@link ListDecoder} reads a list reply's bytes from — a response's body, or nothing for a reply
 * already in memory — and the errors that name it: a broken or closed connection, a reply that ends early,
 * malformed JSON.
 *
 * <p><b>Thread safety.</b> Not thread-safe: one reading thread; {@link #close()} may come from any thread (it
 * closes the response, which ends a blocked read).
 */
final class ListReplySource {

    /** The response being read, or null when decoding bytes in memory. */
    private final ApiResponse response;

    private final InputStream body;
    private volatile boolean closed;

    /** Over {@code response}'s body, or over nothing when {@code response} is null. */
    ListReplySource(ApiResponse response) {
        this.response = response;
        this.body = response == null ? InputStream.nullInputStream() : response.body();
    }

    /**
     * Reads into {@code buf[off, off+len)} as {@link InputStream#read(byte[], int, int)} does.
     *
     * @throws TransportException when reading fails
     */
    int read(byte[] buf, int off, int len) {
        try {
            return body.read(buf, off, len);
        } catch (IOException e) {
            throw new TransportException(
                    uri(),
                    closed
                            ? what() + ": closed while reading the list"
                            : what() + ": reading the list failed: " + e.getMessage(),
                    e);
        }
    }

    /** Closes the response, if any. */
    void close() {
        closed = true;
        if (response != null) {
            response.close();
        }
    }

    /** The error for a reply that ends early. */
    RuntimeException truncated() {
        if (response == null) {
            return new IllegalArgumentException("malformed list reply: it ends early");
        }
        return new TransportException(
                uri(),
                closed ? what() + ": closed while reading the list" : what() + ": the list reply ended early",
                null);
    }

    private URI uri() {
        return response == null ? null : response.request().uri();
    }

    private String what() {
        return response == null
                ? "list reply"
                : response.request().method() + " " + response.request().uri();
    }

    /** The error for the byte {@code got} where {@code expected} should be. */
    static IllegalArgumentException malformed(byte got, String expected) {
        return new IllegalArgumentException(
                "malformed list reply: expected " + expected + ", got '" + (char) (got & 0xff) + "'");
    }
}
