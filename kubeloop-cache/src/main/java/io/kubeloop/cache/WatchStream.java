package io.kubeloop.cache;

import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import java.util.Objects;
import java.util.Optional;

/**
 * An open watch as a {@link ListerWatcher} returns it: the events of one watch request. The
 * client's {@link Watch} is one ({@link #of(Watch)}); {@code io.kubeloop.cache.testing.FakeListerWatcher} makes others.
 *
 * <p><b>Thread safety.</b> One consumer thread calls {@link #next()}; {@link #close()} may be called
 * from any thread and unblocks a waiting {@code next()}, which then returns empty.
 *
 * @param <T> the watched type
 */
public interface WatchStream<T> extends AutoCloseable {

    /**
     * Blocks until the next event or the end of the stream.
     *
     * @return the event, or empty when the stream is over (server closed it, or {@link #close()})
     * @throws RuntimeException when the connection broke (e.g. {@code TransportException})
     */
    Optional<WatchEvent<T>> next();

    /** Ends the watch; idempotent. */
    @Override
    void close();

    /** The client's watch as a stream. */
    static <T> WatchStream<T> of(Watch<T> watch) {
        Objects.requireNonNull(watch, "watch");
        return new WatchStream<>() {
            @Override
            public Optional<WatchEvent<T>> next() {
                return watch.next();
            }

            @Override
            public void close() {
                watch.close();
            }
        };
    }
}
