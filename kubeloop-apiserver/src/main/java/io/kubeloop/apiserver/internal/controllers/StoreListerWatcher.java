package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.apiserver.internal.storage.WatchItem;
import io.kubeloop.apiserver.internal.storage.WatchRequest;
import io.kubeloop.apiserver.internal.storage.Watcher;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.WatchStream;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ListerWatcher} over one resource of the server's own {@link VersionedStore}: lists read the latest
 * state of every namespace, watches are store watches, and each object is handed out as its
 * {@link ObjectMetadata} view. No HTTP and no authentication are involved; selectors and paging are not
 * supported (the built-in controllers watch everything).
 *
 * <p>A watch from a resourceVersion older than the store's history throws the store's 410
 * {@code GoneException}, as the server would answer, so the reflector relists. A watch the store ends (its
 * reader fell behind, or the resource is gone) ends the stream; the reflector then watches again.
 *
 * <p><b>Thread safety.</b> Thread-safe; each {@link WatchStream} has one reader.
 */
public final class StoreListerWatcher implements ListerWatcher<ObjectMetadata> {

    private final VersionedStore store;
    private final String storageId;
    private final String apiVersion;
    private final String kind;
    private final Ticker ticker;

    /**
     * @param storageId the store's resource id, e.g. {@code apps/deployments}
     * @param apiVersion the apiVersion objects are typed with
     * @param kind the kind objects are typed with
     */
    public StoreListerWatcher(VersionedStore store, String storageId, String apiVersion, String kind) {
        this(store, storageId, apiVersion, kind, Ticker.system());
    }

    /**
     * @param storageId the store's resource id, e.g. {@code apps/deployments}
     * @param apiVersion the apiVersion objects are typed with
     * @param kind the kind objects are typed with
     * @param ticker the clock of watch timeouts
     */
    public StoreListerWatcher(VersionedStore store, String storageId, String apiVersion, String kind, Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.store = Objects.requireNonNull(store, "store");
        this.storageId = Objects.requireNonNull(storageId, "storageId");
        this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    @Override
    public ObjectList<ObjectMetadata> list(ListOptions options) {
        ListPage page = store.list(ListQuery.all(storageId, null));
        List<ObjectMetadata> items = new ArrayList<>(page.items().size());
        for (StoredObject o : page.items()) {
            items.add(ObjectMetadata.of(apiVersion, kind, o));
        }
        return new ObjectList<>(items, Long.toString(page.resourceVersion()), null, null);
    }

    @Override
    public WatchStream<ObjectMetadata> watch(ListOptions options) {
        String rv = options.resourceVersion();
        boolean initial = rv == null || rv.isEmpty() || rv.equals("0");
        long from = initial ? 0 : Long.parseLong(rv);
        Watcher watcher = store.watch(new WatchRequest(
                storageId,
                null,
                o -> true,
                from,
                initial,
                initial && Boolean.TRUE.equals(options.sendInitialEvents())));
        long deadline =
                options.timeout() == null ? Long.MAX_VALUE : Ticker.deadline(ticker.nanoTime(), options.timeout());
        return new WatchStream<>() {
            @Override
            public Optional<WatchEvent<ObjectMetadata>> next() {
                while (true) {
                    long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - ticker.nanoTime();
                    if (left <= 0) {
                        watcher.close();
                        return Optional.empty();
                    }
                    Optional<WatchItem> item = watcher.next(Duration.ofNanos(
                            Math.min(left, Duration.ofSeconds(1).toNanos())));
                    if (item.isEmpty()) {
                        continue;
                    }
                    switch (item.get()) {
                        case WatchItem.Event e -> {
                            ObjectMetadata m = ObjectMetadata.of(apiVersion, kind, e.object());
                            return Optional.of(
                                    switch (e.type()) {
                                        case ADDED -> new WatchEvent.Added<>(m);
                                        case MODIFIED -> new WatchEvent.Modified<>(m);
                                        case DELETED -> new WatchEvent.Deleted<>(m);
                                    });
                        }
                        case WatchItem.Bookmark b -> {
                            return Optional.of(new WatchEvent.Bookmark<>(
                                    Long.toString(b.resourceVersion()),
                                    b.initialEventsEnd() ? Map.of(WatchEvent.INITIAL_EVENTS_END, "true") : Map.of()));
                        }
                        case WatchItem.Closed c -> {
                            return Optional.empty();
                        }
                    }
                }
            }

            @Override
            public void close() {
                watcher.close();
            }
        };
    }

    @Override
    public String toString() {
        return "store " + storageId;
    }
}
