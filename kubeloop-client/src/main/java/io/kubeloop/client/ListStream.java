package io.kubeloop.client;

import java.util.Objects;

/**
 * One page of a list whose reply is still being read ({@link ResourceClient#openList}): its list
 * metadata — {@code resourceVersion}, {@code continue}, {@code remainingItemCount} — is known as soon as
 * the server has sent it, which servers do before the items, and the items are decoded by {@link #read()}
 * as they arrive. A pager can therefore ask for the next page while the current one is still being read.
 *
 * <p>When a reply puts its metadata after its items, {@link ResourceClient#openList} reads the items first;
 * the page is then complete when it is opened.
 *
 * <p><b>Thread safety.</b> Not thread-safe: one thread reads; {@link #close()} may come from any thread
 * and ends a blocked read. Closing releases the connection; {@link #read()} closes the stream itself.
 *
 * @param <T> the item type
 */
public interface ListStream<T> extends AutoCloseable {

    /** The list's resourceVersion. */
    String resourceVersion();

    /** The token for the next page, or null on the last page. */
    String continueToken();

    /** The server's estimate of items after this page, or null when not sent. */
    Long remainingItemCount();

    /** True when another page follows. */
    default boolean hasMore() {
        return continueToken() != null;
    }

    /**
     * Reads the rest of the reply and returns the whole page; then the stream is closed. Call it once.
     *
     * @throws io.kubeloop.client.http.TransportException when the connection breaks or the stream was closed
     * @throws tools.jackson.core.JacksonException when the reply is malformed
     * @throws IllegalStateException when called again
     */
    ObjectList<T> read();

    /** Abandons the rest of the reply (if any) and releases its connection. Idempotent. */
    @Override
    void close();

    /** A stream over a page that is already decoded. */
    static <T> ListStream<T> of(ObjectList<T> page) {
        Objects.requireNonNull(page, "page");
        return new ListStream<>() {
            private boolean read;

            @Override
            public String resourceVersion() {
                return page.resourceVersion();
            }

            @Override
            public String continueToken() {
                return page.continueToken();
            }

            @Override
            public Long remainingItemCount() {
                return page.remainingItemCount();
            }

            @Override
            public ObjectList<T> read() {
                if (read) {
                    throw new IllegalStateException("the page was read already");
                }
                read = true;
                return page;
            }

            @Override
            public void close() {
                // nothing held
            }
        };
    }
}
