package io.kubeloop.cache;

import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.WatchTimeoutException;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@link Reflector}'s watch streams event by event and tells how each ended: a broken connection or a
 * watch the client ended because it went silent counts as a clean close (the reflector then resumes from its
 * last resourceVersion), recorded as the stream's {@link InformerMetrics.WatchEnd}; a close within a second
 * without events is a "very short watch" ({@link WatchClosedException}). Counts the silent watches for the log.
 *
 * <p><b>Thread safety.</b> Not thread-safe: used by the reflector's runner thread only.
 *
 * @param <T> the object type
 */
final class ReflectorWatchReader<T> {

    /** Logs under the reflector's name, as before the split. */
    private static final Logger LOG = LoggerFactory.getLogger(Reflector.class);

    private static final Duration VERY_SHORT_WATCH = Duration.ofSeconds(1);

    private final String name;
    private final Ticker ticker;
    private final Runnable checkStopped;
    private final Supplier<String> lastSyncResourceVersion;

    /** How many watches the client ended because they went silent. */
    private long silentWatches;
    /** How the current watch's stream ended, when it ended without an exception. */
    private InformerMetrics.WatchEnd streamEnd = InformerMetrics.WatchEnd.CLOSED;

    ReflectorWatchReader(String name, Ticker ticker, Runnable checkStopped, Supplier<String> lastSyncResourceVersion) {
        this.name = name;
        this.ticker = ticker;
        this.checkStopped = checkStopped;
        this.lastSyncResourceVersion = lastSyncResourceVersion;
    }

    /** How the stream read last by {@link #nextOrEnd} ended, when it ended without an exception. */
    InformerMetrics.WatchEnd streamEnd() {
        return streamEnd;
    }

    /**
     * The watch's next event; empty when it ended — also when its connection broke, its body was
     * cut off mid-event, or the client ended it because it went silent, which client-go's StreamWatcher
     * treats as a clean close: the caller then watches again from the last resourceVersion instead of
     * relisting (a relist of a large cache per network blip is what this avoids). Malformed data and
     * server-sent errors still end it with an exception.
     */
    Optional<WatchEvent<T>> nextOrEnd(WatchStream<T> w) {
        streamEnd = InformerMetrics.WatchEnd.CLOSED;
        try {
            return w.next();
        } catch (WatchTimeoutException silent) {
            checkStopped.run();
            streamEnd = InformerMetrics.WatchEnd.SILENT;
            silentWatches++;
            LOG.info(
                    "{}: {}; resuming from resourceVersion \"{}\" ({} silent watch{} so far)",
                    name,
                    silent.getMessage(),
                    lastSyncResourceVersion.get(),
                    silentWatches,
                    silentWatches == 1 ? "" : "es");
            return Optional.empty();
        } catch (TransportException broken) {
            checkStopped.run();
            streamEnd = InformerMetrics.WatchEnd.BROKEN;
            LOG.debug("{}: watch stream broke, treated as closed: {}", name, broken.toString());
            return Optional.empty();
        }
    }

    /** Throws {@link WatchClosedException} when a watch started at {@code startNanos} ended at once, empty. */
    void checkVeryShort(long startNanos, int events) {
        if (events == 0 && ticker.nanoTime() - startNanos < VERY_SHORT_WATCH.toNanos()) {
            throw new WatchClosedException("very short watch: " + name
                    + ": unexpected watch close - watch lasted less than a second and no items received");
        }
    }

    /** The event's type as the API names it. */
    static String type(WatchEvent<?> event) {
        return switch (event) {
            case WatchEvent.Added<?> a -> "ADDED";
            case WatchEvent.Modified<?> m -> "MODIFIED";
            case WatchEvent.Deleted<?> d -> "DELETED";
            case WatchEvent.Bookmark<?> b -> "BOOKMARK";
            case WatchEvent.Error<?> e -> "ERROR";
        };
    }
}
