package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.VersionConversion;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.WatchItem;
import io.kubeloop.apiserver.internal.storage.Watcher;
import io.kubeloop.time.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Pumps one {@link Watcher} into a transport as newline-terminated {@code WatchEvent} JSON:
 * object bytes are the stored ones (never re-serialized per watcher, except for Table watches);
 * consecutive ready events are batched into one write; bookmarks every {@code bookmarkInterval} when
 * allowed; ends cleanly at the deadline.
 *
 * <p><b>Thread safety.</b> Confined to the request's (virtual) thread.
 */
final class WatchResponseWriter {

    /** Where event frames go: a chunked HTTP body, or WebSocket text messages (one per event). */
    interface Sink {
        /** Writes {@code frames} (each one event line) and flushes. */
        void send(List<byte[]> frames) throws IOException;
    }

    private static final byte[] ADDED = "{\"type\":\"ADDED\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] MODIFIED = "{\"type\":\"MODIFIED\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DELETED = "{\"type\":\"DELETED\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = "}\n".getBytes(StandardCharsets.UTF_8);

    private final ResourceDefinition def;
    private final Watcher watcher;
    private final boolean bookmarks;
    private final Tables.Include tableInclude;
    private final Duration bookmarkInterval;
    private final Ticker clock;
    private boolean tableColumnsSent;

    /** @param tableInclude null for plain objects, else render one-row Tables */
    WatchResponseWriter(
            ResourceDefinition def,
            Watcher watcher,
            boolean bookmarks,
            Tables.Include tableInclude,
            Duration bookmarkInterval,
            Ticker clock) {
        this.def = def;
        this.watcher = watcher;
        this.bookmarks = bookmarks;
        this.tableInclude = tableInclude;
        this.bookmarkInterval = bookmarkInterval;
        this.clock = clock;
    }

    /** One ERROR event with {@code status}. */
    static byte[] errorFrame(Status status) {
        return ("{\"type\":\"ERROR\",\"object\":" + KubeJson.mapper().writeValueAsString(status) + "}\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Runs until the deadline, the watcher's end, or a transport failure (then returns quietly). */
    void run(Sink sink, Instant deadline) {
        Instant nextBookmark = clock.instant().plus(bookmarkInterval);
        try (watcher) {
            while (true) {
                Instant now = clock.instant();
                if (!now.isBefore(deadline)) {
                    return;
                }
                Duration wait =
                        Duration.between(now, bookmarks && nextBookmark.isBefore(deadline) ? nextBookmark : deadline);
                Optional<WatchItem> item = watcher.next(wait.isNegative() ? Duration.ZERO : wait);
                if (item.isEmpty()) {
                    if (bookmarks && !clock.instant().isBefore(nextBookmark)) {
                        Optional<Long> rv = watcher.progressRevision();
                        if (rv.isPresent()) {
                            sink.send(List.of(bookmark(rv.get(), false)));
                        }
                        nextBookmark = clock.instant().plus(bookmarkInterval);
                    }
                    continue;
                }
                java.util.ArrayList<byte[]> batch = new java.util.ArrayList<>();
                boolean closed = false;
                WatchItem it = item.get();
                while (true) {
                    if (it instanceof WatchItem.Closed) {
                        closed = true;
                        break;
                    }
                    byte[] frame = frame(it);
                    if (frame != null) {
                        batch.add(frame);
                    }
                    if (batch.size() >= 256) {
                        break;
                    }
                    Optional<WatchItem> more = watcher.next(Duration.ZERO);
                    if (more.isEmpty()) {
                        break;
                    }
                    it = more.get();
                }
                if (!batch.isEmpty()) {
                    sink.send(batch);
                }
                if (closed) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the client went away (or the transport failed): the watch just ends
        }
    }

    private byte[] frame(WatchItem item) {
        return switch (item) {
            case WatchItem.Event e -> {
                byte[] head = switch (e.type()) {
                    case ADDED -> ADDED;
                    case MODIFIED -> MODIFIED;
                    case DELETED -> DELETED;
                };
                byte[] body = tableInclude == null ? VersionConversion.json(def, e.object()) : tableRow(e.object());
                ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + body.length + 2);
                out.writeBytes(head);
                out.writeBytes(body);
                out.writeBytes(END);
                yield out.toByteArray();
            }
            case WatchItem.Bookmark b ->
                bookmarks || b.initialEventsEnd() ? bookmark(b.resourceVersion(), b.initialEventsEnd()) : null;
            case WatchItem.Closed c -> null;
        };
    }

    private byte[] tableRow(StoredObject o) {
        byte[] b = KubeJson.mapper().writeValueAsBytes(Tables.table(def, List.of(o), tableInclude, !tableColumnsSent));
        tableColumnsSent = true;
        return b;
    }

    private byte[] bookmark(long rv, boolean initialEventsEnd) {
        String annotations = initialEventsEnd ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "";
        return ("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + def.kind() + "\",\"apiVersion\":\""
                        + def.apiVersion() + "\",\"metadata\":{\"resourceVersion\":\"" + rv + "\"" + annotations
                        + "}}}\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
