package io.kubeloop.apiserver.internal.http;

import java.time.Duration;

/**
 * HTTP tuning.
 *
 * <p>Immutable.
 *
 * @param maxBodyBytes request bodies above this get 413 (default 3 MiB, as the real server)
 * @param bookmarkInterval how often an idle watch with bookmarks gets a BOOKMARK (default 1 min)
 * @param minWatchTimeout watches without timeoutSeconds end after a random time in
 *        [min, 2*min) (default 30 min, as the real server)
 * @param listChunkBytes a LIST body larger than this is streamed in chunks of about this size
 *        (chunked transfer encoding), at most two in memory at a time; smaller
 *        bodies go in one piece with a Content-Length (default 256 KiB; must be positive)
 */
public record HttpOptions(long maxBodyBytes, Duration bookmarkInterval, Duration minWatchTimeout, int listChunkBytes) {

    /** Checks {@code listChunkBytes}. */
    public HttpOptions {
        if (listChunkBytes <= 0) {
            throw new IllegalArgumentException("listChunkBytes must be positive, got " + listChunkBytes);
        }
    }

    /** The defaults. */
    public static HttpOptions defaults() {
        return new HttpOptions(3L * 1024 * 1024, Duration.ofMinutes(1), Duration.ofMinutes(30), 256 * 1024);
    }

    /** With another bookmark interval. */
    public HttpOptions withBookmarkInterval(Duration d) {
        return new HttpOptions(maxBodyBytes, d, minWatchTimeout, listChunkBytes);
    }

    /** With another body limit. */
    public HttpOptions withMaxBodyBytes(long bytes) {
        return new HttpOptions(bytes, bookmarkInterval, minWatchTimeout, listChunkBytes);
    }

    /** With another LIST chunk size. */
    public HttpOptions withListChunkBytes(int bytes) {
        return new HttpOptions(maxBodyBytes, bookmarkInterval, minWatchTimeout, bytes);
    }
}
