package io.kubeloop.bench.server;

import java.time.Duration;

/**
 * One watch fan-out: {@code watchers} watches, {@code events} creates by {@code writers} client threads,
 * every event due to every watcher.
 *
 * @param firstWriteToLastDelivery from the first timed write to the last event reaching the last watcher
 * @param writes from the first timed write until every write was acknowledged
 * @param verified watchers that got every event, in order, and the last write's resourceVersion last
 * @param problem the first thing wrong (a watcher short of events, out of order, failed), or null
 * @param serverCpu the server process's CPU time from the first write to the last delivery
 */
record FanOutResult(
        Transport transport,
        int watchers,
        int events,
        int writers,
        Duration firstWriteToLastDelivery,
        Duration writes,
        int verified,
        String problem,
        Duration serverCpu) {

    /** Whether every watcher got every event in order. */
    boolean complete() {
        return verified == watchers && problem == null;
    }

    /** Deliveries (watchers × events) per second. */
    double deliveriesPerSecond() {
        return (double) watchers * events / (firstWriteToLastDelivery.toNanos() / 1e9);
    }

    /** Server CPU nanoseconds per delivery. */
    double cpuNanosPerDelivery() {
        return (double) serverCpu.toNanos() / ((double) watchers * events);
    }
}
