package io.kubeloop.controller.events;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the Events of its {@link EventsV1Recorder}s as {@code events.k8s.io/v1} Events, as client-go's
 * {@code tools/events} broadcaster: the first Event of a kind is created; an isomorphic one (same
 * action, reason, reporting controller, regarding and related objects, and note) while the first is
 * remembered turns it into a series — patched once with {@code series.count} 2, then counted in
 * memory, written again when the series ends (six minutes without a repeat), every 30 minutes while
 * it goes on (a heartbeat), and when the broadcaster closes. An Event not repeated for six minutes is
 * forgotten. Events are named {@code <object name>.<hex nanoseconds>} in the object's namespace (or
 * {@code default}), with {@code reportingController} the recorder's name and
 * {@code reportingInstance} that name, a dash and the host name.
 *
 * <p>Recorders queue Events (at most {@value #QUEUE_SIZE}; more are dropped and counted) for one
 * virtual thread that writes them; a failed write is tried again up to {@code tries} times,
 * {@code retryDelay} apart, then dropped with a warning.
 *
 * <p><b>Thread safety:</b> thread-safe; recorders may be used from any thread. The series table is
 * used by the writing thread only.
 */
public final class EventsV1Broadcaster implements AutoCloseable {

    /** How many Events may wait to be written. */
    public static final int QUEUE_SIZE = 1000;

    /** How long a series (or a single Event) is remembered after it was last seen. */
    static final Duration FINISH_TIME = Duration.ofMinutes(6);

    /** How often an ongoing series is written. */
    static final Duration HEARTBEAT = Duration.ofMinutes(30);

    private static final Logger LOG = LoggerFactory.getLogger(EventsV1Broadcaster.class);
    private static final GroupVersionResource EVENTS = new GroupVersionResource("events.k8s.io", "v1", "events");
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /** An Event as recorded. */
    private record Pending(
            InvolvedObject regarding,
            InvolvedObject related,
            String controller,
            EventType type,
            String reason,
            String action,
            String note,
            Instant time) {

        /** What makes two Events isomorphic (client-go's key; the type is not part of it). */
        Key key() {
            return new Key(
                    action, reason, controller, regarding.identity(), related == null ? "" : related.identity(), note);
        }
    }

    private record Key(
            String action, String reason, String controller, String regarding, String related, String note) {}

    /** A written Event and its series, as the writing thread remembers it. */
    private static final class Written {
        final Pending first;
        final String name;
        int count = 1;
        Instant lastObserved;
        Instant lastWritten;
        boolean unwrittenCount;

        Written(Pending first, String name) {
            this.first = first;
            this.name = name;
            this.lastObserved = first.time();
            this.lastWritten = first.time();
        }
    }

    private static final Pending STOP = new Pending(null, null, null, null, null, null, null, null);

    private final ResourceClient<DynamicObject> events;
    private final Ticker ticker;
    private final String host;
    private final int tries;
    private final Duration retryDelay;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE_SIZE + 1);
    private final Map<Key, Written> remembered = new HashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private volatile boolean closed;
    private final Thread thread;

    /**
     * A broadcaster writing through {@code client} on the system clock, with client-go's retries (12
     * tries, 10 s apart), reporting this host's name.
     *
     * @param client the cluster
     */
    public EventsV1Broadcaster(KubeClient client) {
        this(client, EventBroadcasterOptions.defaults());
    }

    /**
     * A broadcaster with its own clock, retries and host name.
     *
     * @param client the cluster
     * @param options the clock, the retries and the host name in {@code reportingInstance}
     */
    public EventsV1Broadcaster(KubeClient client, EventBroadcasterOptions options) {
        this.events = Objects.requireNonNull(client, "client")
                .resource(EVENTS, ResourceScope.NAMESPACED, DynamicObject.class);
        this.ticker = options.ticker();
        this.host = options.host();
        this.tries = options.tries();
        this.retryDelay = options.retryDelay();
        this.thread = Thread.ofVirtual().name("events-v1-broadcaster").start(this::run);
    }

    /**
     * A recorder reporting as {@code reportingController}.
     *
     * @param reportingController the controller's name, e.g. {@code foo-controller}; not blank
     * @return the recorder
     */
    public EventsV1Recorder recorderFor(String reportingController) {
        if (reportingController == null || reportingController.isBlank()) {
            throw new IllegalArgumentException("an event recorder needs a reporting controller name");
        }
        return (regarding, related, type, reason, action, note) -> {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(action, "action");
            Pending event = new Pending(
                    InvolvedObject.of(regarding),
                    related == null ? null : InvolvedObject.of(related),
                    reportingController,
                    type,
                    reason,
                    action,
                    Objects.requireNonNullElse(note, ""),
                    ticker.instant());
            if (closed || !queue.offer(event)) {
                dropped.incrementAndGet();
            }
        };
    }

    /** Events dropped because the queue was full, the broadcaster closed, or the server refused them. */
    public long dropped() {
        return dropped.get();
    }

    /** Writes made to the server: creates and series patches. */
    public long written() {
        return written.get();
    }

    /** Stops accepting Events, writes those queued and the counts of ongoing series, and stops. */
    @Override
    public void close() {
        closed = true;
        queue.offer(STOP);
        try {
            thread.join(Duration.ofSeconds(10));
            if (thread.isAlive()) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            for (; ; ) {
                Pending next = queue.poll(1, TimeUnit.SECONDS);
                if (next == STOP) {
                    break;
                }
                if (next != null) {
                    record(next);
                }
                maintain(ticker.instant());
            }
            for (Written w : remembered.values()) {
                if (w.unwrittenCount) {
                    writeWithRetries(w.name, () -> patchSeries(w));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void record(Pending event) throws InterruptedException {
        Key key = event.key();
        Written w = remembered.get(key);
        if (w != null) {
            w.count++;
            w.lastObserved = event.time();
            if (w.count == 2) {
                writeWithRetries(w.name, () -> patchSeries(w));
            } else {
                w.unwrittenCount = true;
            }
            return;
        }
        String name = event.regarding().name() + "." + Long.toHexString(nanos(event.time()));
        Written created = new Written(event, name);
        if (writeWithRetries(name, () -> create(created))) {
            remembered.put(key, created);
        }
    }

    /** Ends series and forgets Events unseen for {@link #FINISH_TIME}; writes ongoing series every {@link #HEARTBEAT}. */
    private void maintain(Instant now) throws InterruptedException {
        List<Written> toWrite = new ArrayList<>();
        for (Iterator<Written> it = remembered.values().iterator(); it.hasNext(); ) {
            Written w = it.next();
            boolean finished = w.lastObserved.plus(FINISH_TIME).isBefore(now);
            if (finished) {
                it.remove();
            }
            if (w.count > 1
                    && (finished
                            ? w.unwrittenCount
                            : !w.lastWritten.plus(HEARTBEAT).isAfter(now))) {
                toWrite.add(w);
            }
        }
        for (Written w : toWrite) {
            writeWithRetries(w.name, () -> patchSeries(w));
        }
    }

    private boolean writeWithRetries(String name, Runnable write) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                written.incrementAndGet();
                return true;
            } catch (ApiException e) {
                if ((e.code() >= 400 && e.code() < 500 && e.code() != 429) || attempt >= tries || closed) {
                    LOG.warn("event {} not written, dropped: {}", name, e.toString());
                    dropped.incrementAndGet();
                    return false;
                }
            } catch (RuntimeException e) {
                if (attempt >= tries || closed) {
                    LOG.warn("event {} not written after {} tries, dropped: {}", name, attempt, e.toString());
                    dropped.incrementAndGet();
                    return false;
                }
            }
            ticker.sleep(retryDelay);
        }
    }

    private void create(Written w) {
        Pending e = w.first;
        InvolvedObject o = e.regarding();
        DynamicObject event = DynamicObject.of("events.k8s.io/v1", "Event", ObjectMeta.of(o.eventNamespace(), w.name))
                .edit(tree -> {
                    tree.put("eventTime", MICRO_TIME.format(e.time()));
                    tree.put("reportingController", e.controller());
                    tree.put("reportingInstance", e.controller() + "-" + host);
                    tree.put("action", e.action());
                    tree.put("reason", e.reason());
                    reference(tree.putObject("regarding"), o);
                    if (e.related() != null) {
                        reference(tree.putObject("related"), e.related());
                    }
                    tree.put("note", e.note());
                    tree.put("type", e.type().value());
                    if (w.count > 1) {
                        series(tree, w);
                    }
                });
        events.inNamespace(o.eventNamespace()).create(event, WriteOptions.none());
    }

    private void patchSeries(Written w) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        series(patch, w);
        try {
            events.inNamespace(w.first.regarding().eventNamespace())
                    .patch(w.name, PatchType.MERGE, patch.toString(), PatchOptions.none());
        } catch (NotFoundException gone) {
            create(w); // deleted meanwhile: write it again, with its series
        }
        w.lastWritten = ticker.instant();
        w.unwrittenCount = false;
    }

    private static void series(ObjectNode tree, Written w) {
        ObjectNode series = tree.putObject("series");
        series.put("count", w.count);
        series.put("lastObservedTime", MICRO_TIME.format(w.lastObserved));
    }

    private static void reference(ObjectNode ref, InvolvedObject o) {
        ref.put("apiVersion", o.apiVersion());
        ref.put("kind", o.kind());
        if (!o.namespace().isEmpty()) {
            ref.put("namespace", o.namespace());
        }
        ref.put("name", o.name());
        if (o.uid() != null) {
            ref.put("uid", o.uid());
        }
        if (o.resourceVersion() != null) {
            ref.put("resourceVersion", o.resourceVersion());
        }
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public String toString() {
        return "EventsV1Broadcaster[written=" + written + ", dropped=" + dropped + ", queued=" + queue.size() + "]";
    }
}
