package io.kubeloop.cache.testing;

import io.kubeloop.cache.WatchStream;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.WatchTimeoutException;
import io.kubeloop.client.http.TransportException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * One watch a {@link FakeListerWatcher} serves: the events it queues for the reader, ended by a marker (the end
 * of the stream, a broken connection, an idle timeout). Thread-safe: the fake queues from the test's thread,
 * the reader takes from its own.
 *
 * @param <T> the object type
 */
final class FakeWatch<T> implements WatchStream<T> {

    static final URI FAKE = URI.create("fake://lister-watcher");
    /** Queued to end the stream. */
    static final Object END = new Object();
    /** Queued to break the connection. */
    static final Object BROKEN = new Object();
    /** Queued to time the watch out. */
    static final Object TIMED_OUT = new Object();

    final ListOptions options;
    final SelectorFilter filter;
    final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    private final Consumer<FakeWatch<T>> onClose;

    FakeWatch(ListOptions options, Consumer<FakeWatch<T>> onClose) {
        this.options = options;
        this.filter = SelectorFilter.of(options);
        this.onClose = onClose;
    }

    boolean matches(WatchEvent<T> event) {
        return switch (event) {
            case WatchEvent.Added<T> a -> filter.test(a.object());
            case WatchEvent.Modified<T> m -> filter.test(m.object());
            case WatchEvent.Deleted<T> d -> filter.test(d.object());
            case WatchEvent.Bookmark<T> b -> options.allowWatchBookmarks();
            case WatchEvent.Error<T> e -> true;
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<WatchEvent<T>> next() {
        if (closed) {
            return Optional.empty();
        }
        Object item;
        try {
            item = queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        if (item == END || closed) {
            closed = true;
            queue.add(END);
            return Optional.empty();
        }
        if (item == BROKEN) {
            closed = true;
            throw new TransportException(FAKE, "watch " + FAKE + " broke: connection reset (injected)", null);
        }
        if (item == TIMED_OUT) {
            closed = true;
            Duration idle =
                    options.idleTimeout() != null && options.idleTimeout().isPositive()
                            ? options.idleTimeout()
                            : ClientOptions.defaults().watchIdleTimeout();
            throw new WatchTimeoutException(FAKE, WatchTimeoutException.Kind.IDLE, idle);
        }
        return Optional.of((WatchEvent<T>) item);
    }

    @Override
    public void close() {
        closed = true;
        queue.add(END);
        onClose.accept(this);
    }
}
