package io.kubeloop.controller.metrics;

import io.kubeloop.cache.InformerMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Informers' and reflectors' {@link InformerMetrics} in a Micrometer registry, every meter tagged
 * {@code name} with the informer's name (its resource and scope, e.g. {@code foos[*]} in all namespaces, {@code foos[default]} in one).
 * The reflector's meters keep the names client-go's reflector metrics had:
 *
 * <ul>
 * <li>{@code reflector_lists_total}, {@code reflector_list_duration_seconds} (histogram) and
 *     {@code reflector_items_per_list} (summary): reads of the whole collection, by a LIST or by a
 *     watch-list's initial events;</li>
 * <li>{@code reflector_watches_total}, {@code reflector_watch_duration_seconds} (histogram),
 *     {@code reflector_items_per_watch} (summary) and {@code reflector_short_watches_total};</li>
 * <li>{@code reflector_watch_restarts_total} ({@code reason}: {@code closed}, {@code silent},
 *     {@code broken}, {@code expired}, {@code throttled}, {@code short}, {@code error}): watches that
 *     ended, by why;</li>
 * <li>{@code reflector_last_resource_version}: the last resourceVersion synced, as a number.</li>
 * </ul>
 *
 * and the informer's:
 *
 * <ul>
 * <li>{@code informer_events_total} ({@code type}: {@code ADDED}, {@code MODIFIED}, {@code DELETED},
 *     {@code BOOKMARK}, {@code ERROR}): watch events received;</li>
 * <li>{@code informer_objects}: objects in the cache;</li>
 * <li>{@code informer_sync_duration_seconds}: from start to the first sync ({@code NaN} before it);</li>
 * <li>{@code informer_handler_backlog} ({@code handler}): notifications waiting for each handler;</li>
 * <li>{@code informer_handler_delivery_duration_seconds} ({@code handler}, histogram): from the
 *     informer queuing a notification for a handler to the handler getting it.</li>
 * </ul>
 *
 * A {@link io.kubeloop.controller.Manager} reports its informers here by itself; elsewhere pass
 * {@link #provider(MeterRegistry)} to {@code ReflectorOptions.Builder#metrics}.
 *
 * <p>Thread-safe.
 */
public final class InformerMeters implements InformerMetrics {

    private static final Duration[] LIST_BUCKETS =
            Buckets.seconds(0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60);
    private static final Duration[] WATCH_BUCKETS = Buckets.seconds(1, 10, 60, 300, 600, 1200);
    private static final Duration[] DELIVERY_BUCKETS = Buckets.seconds(1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10);

    private final MeterRegistry registry;
    private final String name;
    private final Counter lists;
    private final Timer listDuration;
    private final DistributionSummary itemsPerList;
    private final Counter watches;
    private final Timer watchDuration;
    private final DistributionSummary itemsPerWatch;
    private final Counter shortWatches;
    private final Map<WatchEnd, Counter> restarts = new EnumMap<>(WatchEnd.class);
    private final Map<String, Counter> events = new ConcurrentHashMap<>();
    private final Map<String, Timer> deliveries = new ConcurrentHashMap<>();
    /** Nanoseconds to the first sync; negative before it. */
    private final AtomicLong syncNanos = new AtomicLong(-1);

    private InformerMeters(MeterRegistry registry, String name) {
        this.registry = registry;
        this.name = name;
        lists = Counter.builder("reflector.lists")
                .description("Total number of API lists done by the reflectors")
                .tag("name", name)
                .register(registry);
        listDuration = Timer.builder("reflector.list.duration")
                .description("How long an API list takes to return and decode for the reflectors")
                .tag("name", name)
                .serviceLevelObjectives(LIST_BUCKETS)
                .register(registry);
        itemsPerList = DistributionSummary.builder("reflector.items.per.list")
                .description("How many items an API list returns to the reflectors")
                .tag("name", name)
                .register(registry);
        watches = Counter.builder("reflector.watches")
                .description("Total number of API watches done by the reflectors")
                .tag("name", name)
                .register(registry);
        watchDuration = Timer.builder("reflector.watch.duration")
                .description("How long an API watch takes to return and decode for the reflectors")
                .tag("name", name)
                .serviceLevelObjectives(WATCH_BUCKETS)
                .register(registry);
        itemsPerWatch = DistributionSummary.builder("reflector.items.per.watch")
                .description("How many items an API watch returns to the reflectors")
                .tag("name", name)
                .register(registry);
        shortWatches = Counter.builder("reflector.short.watches")
                .description("Total number of short API watches done by the reflectors")
                .tag("name", name)
                .register(registry);
        for (WatchEnd end : WatchEnd.values()) {
            restarts.put(
                    end,
                    Counter.builder("reflector.watch.restarts")
                            .description("Watches that ended and were started again, by why they ended")
                            .tags("name", name, "reason", end.name().toLowerCase(Locale.ROOT))
                            .register(registry));
        }
        Gauge.builder("informer.sync.duration", syncNanos, n -> n.get() < 0 ? Double.NaN : n.get() / 1e9)
                .description("Time from the informer's start to its first sync")
                .baseUnit("seconds")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
    }

    /** A provider registering each informer's meters in {@code registry} under its name. */
    public static InformerMetrics.Provider provider(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        return name -> new InformerMeters(registry, name);
    }

    @Override
    public void started(IntSupplier objects, Supplier<String> resourceVersion) {
        Gauge.builder("informer.objects", objects, IntSupplier::getAsInt)
                .description("Objects in the informer's cache")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
        Gauge.builder("reflector.last.resource.version", resourceVersion, InformerMeters::number)
                .description("Last resource version seen for the reflectors")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
    }

    private static double number(Supplier<String> resourceVersion) {
        try {
            return Double.parseDouble(resourceVersion.get());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    @Override
    public void handlerAdded(String handler, IntSupplier backlog) {
        Gauge.builder("informer.handler.backlog", backlog, IntSupplier::getAsInt)
                .description("Notifications queued for the handler and not yet handed to it")
                .tags("name", name, "handler", handler)
                .strongReference(true)
                .register(registry);
    }

    @Override
    public void listed(Duration took, int items) {
        lists.increment();
        listDuration.record(took);
        itemsPerList.record(items);
    }

    @Override
    public void watchStarted() {
        watches.increment();
    }

    @Override
    public void watchEnded(WatchEnd reason, Duration lasted, int events) {
        restarts.get(reason).increment();
        if (reason == WatchEnd.SHORT) {
            shortWatches.increment();
        }
        watchDuration.record(lasted);
        itemsPerWatch.record(events);
    }

    @Override
    public void eventReceived(String type) {
        events.computeIfAbsent(
                        type,
                        t -> Counter.builder("informer.events")
                                .description("Watch events the informer received, by type")
                                .tags("name", name, "type", t)
                                .register(registry))
                .increment();
    }

    @Override
    public void synced(Duration took) {
        syncNanos.compareAndSet(-1, took.toNanos());
    }

    @Override
    public void delivered(String handler, Duration latency) {
        deliveries
                .computeIfAbsent(
                        handler,
                        h -> Timer.builder("informer.handler.delivery.duration")
                                .description(
                                        "Time from the informer queuing a notification for a handler to the handler"
                                                + " getting it")
                                .tags("name", name, "handler", h)
                                .serviceLevelObjectives(DELIVERY_BUCKETS)
                                .register(registry))
                .record(latency);
    }
}
