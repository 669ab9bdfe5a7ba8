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
import io.kubeloop.time.internal.Waiters;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the Events of its {@link EventRecorder}s as core/v1 Events, as client-go's
 * {@code record.EventBroadcaster} with its default sink: recorders queue Events (at most
 * {@value #QUEUE_SIZE}; more are dropped and counted), and one virtual thread correlates them
 * ({@link EventCorrelator}: similar ones combined, identical ones counted on one Event, a source's
 * spam about one object limited to 25 and then one per 5 minutes) and writes them, retrying a
 * failed write up to {@code tries} times, {@code retryDelay} apart (the first delay randomized).
 * An Event is named {@code <object name>.<hex nanoseconds>}, lives in the object's namespace (or
 * {@code default}), and names the object, the reporting component, and its first and last time.
 *
 * <p><b>Thread safety:</b> thread-safe; recorders may be used from any thread.
 */
public final class EventBroadcaster implements AutoCloseable {

    /** How many Events may wait to be written. */
    public static final int QUEUE_SIZE = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(EventBroadcaster.class);
    private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
    private static final EventCorrelator.Pending STOP = new EventCorrelator.Pending(null, null, null, null, null, null);

    private final ResourceClient<DynamicObject> events;
    private final Ticker ticker;
    private final int tries;
    private final Duration retryDelay;
    private final BlockingQueue<EventCorrelator.Pending> queue = new ArrayBlockingQueue<>(QUEUE_SIZE + 1);
    private final EventCorrelator correlator = new EventCorrelator();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private volatile boolean closed;
    /** Set when the writing thread ends. */
    private volatile boolean finished;
    /**
     * {@link #close()} waiting for the writing thread, woken when it ends; and the writing thread
     * waiting between tries, woken by {@link #close()}.
     */
    private final Waiters closing = new Waiters();

    private final Thread thread;

    /**
     * A broadcaster writing through {@code client} with client-go's retries (12 tries, 10 s apart).
     *
     * @param client the cluster
     */
    public EventBroadcaster(KubeClient client) {
        this(client, EventBroadcasterOptions.defaults());
    }

    /**
     * A broadcaster with its own clock and retries.
     *
     * @param client the cluster
     * @param options the clock and the retries
     */
    public EventBroadcaster(KubeClient client, EventBroadcasterOptions options) {
        this.events = Objects.requireNonNull(client, "client")
                .resource(EVENTS, ResourceScope.NAMESPACED, DynamicObject.class);
        this.ticker = options.ticker();
        this.tries = options.tries();
        this.retryDelay = options.retryDelay();
        this.thread = Thread.ofVirtual().name("event-broadcaster").start(this::run);
    }

    /**
     * A recorder that reports as {@code component} (the Event's {@code source.component}, e.g. the
     * controller's name).
     *
     * @param component the reporting component; not blank
     * @return the recorder
     */
    public EventRecorder recorderFor(String component) {
        if (component == null || component.isBlank()) {
            throw new IllegalArgumentException("an event recorder needs a component name");
        }
        return (object, type, reason, message) -> {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(reason, "reason");
            EventCorrelator.Pending event = new EventCorrelator.Pending(
                    InvolvedObject.of(object),
                    component,
                    type,
                    reason,
                    Objects.requireNonNullElse(message, ""),
                    ticker.instant());
            if (closed || !queue.offer(event)) {
                dropped.incrementAndGet();
            }
        };
    }

    /** Events dropped because the queue was full or the broadcaster closed. */
    public long dropped() {
        return dropped.get();
    }

    /** Events written to the server (created or counted). */
    public long written() {
        return written.get();
    }

    /**
     * Stops accepting Events, writes those queued (waiting at most 10 s on the ticker), and stops. A write
     * waiting out its retry delay is tried once more at once and dropped if it fails again.
     */
    @Override
    public void close() {
        closed = true;
        closing.wakeAll(); // a write waiting to retry tries once more now, then gives up
        queue.offer(STOP); // the extra slot keeps room for it
        try {
            if (!closing.awaitInterruptibly(
                    ticker, Ticker.deadline(ticker.nanoTime(), Duration.ofSeconds(10)), () -> finished)) {
                thread.interrupt();
            } else {
                thread.join(); // it has finished its work and is ending
            }
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            for (EventCorrelator.Pending next = queue.take(); next != STOP; next = queue.take()) {
                switch (correlator.correlate(next)) {
                    case EventCorrelator.Create c -> writeWithRetries(c.name(), () -> create(c));
                    case EventCorrelator.Count c -> writeWithRetries(c.name(), () -> count(c));
                    case EventCorrelator.Drop d -> dropped.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished = true;
            closing.wakeAll();
        }
    }

    private void writeWithRetries(String name, Runnable write) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                written.incrementAndGet();
                return;
            } catch (ApiException e) {
                if (e.code() >= 400 && e.code() < 500 && e.code() != 429) {
                    LOG.warn("event {} rejected by the server, dropped: {}", name, e.toString());
                    correlator.forget(name);
                    return;
                }
                if (attempt >= tries || closed) {
                    LOG.warn("event {} not written after {} tries, dropped: {}", name, attempt, e.toString());
                    correlator.forget(name);
                    return;
                }
            } catch (RuntimeException e) {
                if (attempt >= tries || closed) {
                    LOG.warn("event {} not written after {} tries, dropped: {}", name, attempt, e.toString());
                    correlator.forget(name);
                    return;
                }
            }
            long delay = attempt == 1
                    ? (long) (ThreadLocalRandom.current().nextDouble() * retryDelay.toNanos())
                    : retryDelay.toNanos();
            if (!closed) {
                closing.awaitInterruptibly(
                        ticker, Ticker.deadline(ticker.nanoTime(), Duration.ofNanos(delay)), () -> closed);
            }
        }
    }

    private void create(EventCorrelator.Create c) {
        EventCorrelator.Pending e = c.event();
        InvolvedObject o = e.object();
        String time = e.time().truncatedTo(ChronoUnit.SECONDS).toString();
        DynamicObject event = DynamicObject.of("v1", "Event", ObjectMeta.of(o.eventNamespace(), c.name()))
                .edit(tree -> {
                    ObjectNode involved = tree.putObject("involvedObject");
                    involved.put("apiVersion", o.apiVersion());
                    involved.put("kind", o.kind());
                    if (!o.namespace().isEmpty()) {
                        involved.put("namespace", o.namespace());
                    }
                    involved.put("name", o.name());
                    if (o.uid() != null) {
                        involved.put("uid", o.uid());
                    }
                    if (o.resourceVersion() != null) {
                        involved.put("resourceVersion", o.resourceVersion());
                    }
                    tree.put("reason", e.reason());
                    tree.put("message", e.message());
                    tree.putObject("source").put("component", e.component());
                    tree.put("firstTimestamp", time);
                    tree.put("lastTimestamp", time);
                    tree.put("count", 1);
                    tree.put("type", e.type().value());
                    tree.put("reportingComponent", e.component());
                });
        events.inNamespace(o.eventNamespace()).create(event, WriteOptions.none());
    }

    private void count(EventCorrelator.Count c) {
        EventCorrelator.Pending e = c.event();
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.put("count", c.count());
        patch.put("lastTimestamp", e.time().truncatedTo(ChronoUnit.SECONDS).toString());
        patch.put("message", e.message());
        try {
            events.inNamespace(e.object().eventNamespace())
                    .patch(c.name(), PatchType.MERGE, patch.toString(), PatchOptions.none());
        } catch (NotFoundException gone) {
            // never created (dropped as spam, or failed) or deleted since: write it as a new Event
            create(new EventCorrelator.Create(e, c.name()));
        }
    }

    @Override
    public String toString() {
        return "EventBroadcaster[written=" + written + ", dropped=" + dropped + ", queued=" + queue.size() + "]";
    }
}
