package io.kubeloop.controller.internal.live;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.HotKeys;
import io.kubeloop.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * A manager's loops at one moment, as the JSON the live view draws, read from its meter registry:
 *
 * <pre>{@code
 * {"time": epoch millis, "leader": true,
 *  "informers":   {"<name>": {"synced", "objects", "resourceVersion", "events", "restarts", "lists"}},
 *  "queues":      {"<name>": {"depth", "adds", "retries", "queueSeconds", "queueMaxSeconds", "workSeconds"}},
 *  "controllers": {"<name>": {"success", "error", "requeue", "requeue_after", "errors", "activeWorkers",
 *                             "reconcileSeconds", "reconcileMaxSeconds",
 *                             "slowest": [{"key", "seconds"}], "mostRetried": [{"key", "retries"}]}}}
 * }</pre>
 *
 * Counts are totals since start (the page turns them into rates); durations are means and recent
 * maxima in seconds.
 *
 * <p>Thread-safe: each call reads the registry afresh.
 */
public final class LoopSnapshots {

    private final MeterRegistry registry;
    private final BooleanSupplier leader;
    private final Supplier<List<Controller>> controllers;
    private final Ticker clock;

    /**
     * Snapshots of the meters in {@code registry}.
     *
     * @param leader whether the manager leads now
     * @param controllers the manager's controllers now, for their hot keys
     * @param clock stamps each snapshot
     */
    public LoopSnapshots(
            MeterRegistry registry, BooleanSupplier leader, Supplier<List<Controller>> controllers, Ticker clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.leader = Objects.requireNonNull(leader, "leader");
        this.controllers = Objects.requireNonNull(controllers, "controllers");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The loops now, as JSON. */
    public String json() {
        Map<String, ObjectNode> informers = new TreeMap<>();
        Map<String, ObjectNode> queues = new TreeMap<>();
        Map<String, ObjectNode> controllerRows = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            String name = meter.getId().getName();
            String tag;
            if (name.startsWith("informer.") || name.startsWith("reflector.")) {
                tag = meter.getId().getTag("name");
                if (tag != null) {
                    informer(entry(informers, tag), name, meter);
                }
            } else if (name.startsWith("workqueue.")) {
                tag = meter.getId().getTag("name");
                if (tag != null) {
                    queue(entry(queues, tag), name, meter);
                }
            } else if (name.startsWith("controller_runtime.")) {
                tag = meter.getId().getTag("controller");
                if (tag != null) {
                    controller(entry(controllerRows, tag), name, meter);
                }
            }
        }
        for (Controller c : controllers.get()) {
            HotKeys hot = c.hotKeys();
            ObjectNode into = entry(controllerRows, c.name());
            var slowest = into.putArray("slowest");
            hot.slowest()
                    .forEach(k -> slowest.addObject()
                            .put("key", k.request().toString())
                            .put("seconds", k.lastReconcile().toNanos() / 1e9));
            var retried = into.putArray("mostRetried");
            hot.mostRetried()
                    .forEach(k -> retried.addObject()
                            .put("key", k.request().toString())
                            .put("retries", k.retries()));
        }
        ObjectNode root = KubeJson.mapper().createObjectNode();
        root.put("time", clock.instant().toEpochMilli());
        root.put("leader", leader.getAsBoolean());
        informers.forEach(root.putObject("informers")::set);
        queues.forEach(root.putObject("queues")::set);
        controllerRows.forEach(root.putObject("controllers")::set);
        return root.toString();
    }

    private static ObjectNode entry(Map<String, ObjectNode> into, String name) {
        return into.computeIfAbsent(name, n -> KubeJson.mapper().createObjectNode());
    }

    private static void informer(ObjectNode into, String name, Meter meter) {
        switch (name) {
            case "informer.objects" -> into.put("objects", (long) gauge(meter));
            case "informer.sync.duration" -> into.put("synced", !Double.isNaN(gauge(meter)));
            case "reflector.last.resource.version" -> {
                double rv = gauge(meter);
                into.put("resourceVersion", Double.isNaN(rv) ? "" : Long.toString((long) rv));
            }
            case "informer.events" -> add(into, "events", count(meter));
            case "reflector.watch.restarts" -> add(into, "restarts", count(meter));
            case "reflector.lists" -> add(into, "lists", count(meter));
            default -> {}
        }
    }

    private static void queue(ObjectNode into, String name, Meter meter) {
        switch (name) {
            case "workqueue.depth" -> into.put("depth", (long) gauge(meter));
            case "workqueue.adds" -> add(into, "adds", count(meter));
            case "workqueue.retries" -> add(into, "retries", count(meter));
            case "workqueue.queue.duration" -> {
                Timer t = (Timer) meter;
                into.put("queueSeconds", t.mean(TimeUnit.SECONDS));
                into.put("queueMaxSeconds", t.max(TimeUnit.SECONDS));
            }
            case "workqueue.work.duration" -> into.put("workSeconds", ((Timer) meter).mean(TimeUnit.SECONDS));
            default -> {}
        }
    }

    private static void controller(ObjectNode into, String name, Meter meter) {
        switch (name) {
            case "controller_runtime.reconcile" -> {
                String result = meter.getId().getTag("result");
                if (result != null) {
                    add(into, result, count(meter));
                }
            }
            case "controller_runtime.reconcile_errors" -> add(into, "errors", count(meter));
            case "controller_runtime.active_workers" -> into.put("activeWorkers", (long) gauge(meter));
            case "controller_runtime.reconcile_time" -> {
                Timer t = (Timer) meter;
                into.put("reconcileSeconds", t.mean(TimeUnit.SECONDS));
                into.put("reconcileMaxSeconds", t.max(TimeUnit.SECONDS));
            }
            default -> {}
        }
    }

    private static double gauge(Meter meter) {
        return meter instanceof Gauge g ? g.value() : Double.NaN;
    }

    private static long count(Meter meter) {
        return meter instanceof Counter c ? (long) c.count() : 0;
    }

    private static void add(ObjectNode into, String field, long value) {
        into.put(field, into.path(field).asLong(0) + value);
    }
}
