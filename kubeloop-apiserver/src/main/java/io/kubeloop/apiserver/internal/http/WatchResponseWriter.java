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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pumps one {@link Watcher} into a transport as newline-terminated {@code WatchEvent} JSON:
 * object bytes are the stored ones (never re-serialized per watcher, except for Table watches);
 * consecutive ready events are batched into one write; bookmarks every {@code bookmarkInterval} when
 * allowed; ends cleanly at the deadline.
 *
 * <p>Event objects take the form the request's Accept negotiated: the object itself, a one-row Table,
 * or PartialObjectMetadata (bookmarks too: metadata with just {@code resourceVersion}, and the
 * {@code k8s.io/initial-events-end} annotation on the one ending the initial events). A watch that
 * negotiated PartialObjectMetadataList ends, with nothing written, where its first event or bookmark
 * would go: kube-apiserver cannot encode an event object as that list and closes the stream there.
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
    private final Accepts.Target target;
    private final String targetApiVersion;
    private final Tables.Include tableInclude;
    private final Duration bookmarkInterval;
    private final Ticker clock;
    private boolean tableColumnsSent;

    /**
     * @param accepts the negotiated form of event objects (acceptable)
     * @param tableInclude the Table's includeObject when {@code accepts} chose a Table, else ignored
     */
    WatchResponseWriter(
            ResourceDefinition def,
            Watcher watcher,
            boolean bookmarks,
            Accepts accepts,
            Tables.Include tableInclude,
            Duration bookmarkInterval,
            Ticker clock) {
        this.def = def;
        this.watcher = watcher;
        this.bookmarks = bookmarks;
        this.target = accepts.target();
        this.targetApiVersion = target == Accepts.Target.OBJECT ? null : accepts.targetApiVersion();
        this.tableInclude = target == Accepts.Target.TABLE ? tableInclude : null;
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
                            if (target == Accepts.Target.PARTIAL_OBJECT_METADATA_LIST) {
                                return;
                            }
                            sink.send(List.of(bookmark(rv.get(), false)));
                        }
                        nextBookmark = clock.instant().plus(bookmarkInterval);
                    }
                    continue;
                }
                ArrayList<byte[]> batch = new ArrayList<>();
                boolean closed = false;
                WatchItem it = item.get();
                while (true) {
                    if (it instanceof WatchItem.Closed) {
                        closed = true;
                        break;
                    }
                    byte[] frame = frame(it);
                    if (frame != null && target == Accepts.Target.PARTIAL_OBJECT_METADATA_LIST) {
                        closed = true;
                        break;
                    }
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
                byte[] body = switch (target) {
                    case TABLE -> tableRow(e.object());
                    case PARTIAL_OBJECT_METADATA, PARTIAL_OBJECT_METADATA_LIST ->
                        PartialObjects.of(targetApiVersion, e.object().json());
                    case OBJECT -> VersionConversion.json(def, e.object());
                };
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
        if (targetApiVersion != null && target != Accepts.Target.TABLE) {
            return ("{\"type\":\"BOOKMARK\",\"object\":"
                            + PartialObjects.bookmark(targetApiVersion, rv, initialEventsEnd) + "}\n")
                    .getBytes(StandardCharsets.UTF_8);
        }
        String annotations = initialEventsEnd ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "";
        return ("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + def.kind() + "\",\"apiVersion\":\""
                        + def.apiVersion() + "\",\"metadata\":{\"resourceVersion\":\"" + rv + "\"" + annotations
                        + "}}}\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
