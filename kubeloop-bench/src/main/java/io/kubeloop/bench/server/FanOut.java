package io.kubeloop.bench.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The watch fan-out: opens {@code watchers} watches of an empty namespace's ConfigMaps, proves each is
 * live with one sentinel object, then creates {@code events} ConfigMaps there with {@code writers}
 * threads and waits until every watcher has every event (or nothing moves for a minute). Stateless.
 */
final class FanOut {

    private static final Duration OPEN_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STALL = Duration.ofSeconds(60);

    private FanOut() {}

    /** Runs one fan-out in namespace {@code namespace} (created here; it must be new). */
    static FanOutResult run(
            Driver driver,
            ServerProcess server,
            Transport transport,
            String namespace,
            int watchers,
            int events,
            int writers)
            throws InterruptedException {
        driver.createNamespace(namespace);
        String path = ConfigMaps.path(namespace);
        List<WatchReceiver> receivers = new ArrayList<>();
        try {
            long o0 = System.nanoTime();
            for (int i = 0; i < watchers; i++) {
                WatchReceiver r = new WatchReceiver(events);
                receivers.add(r);
                driver.watch(path, transport, r);
                if (i % 32 == 31) { // a few handshakes at a time
                    awaitOpen(receivers.subList(i - 31, i + 1));
                }
            }
            awaitOpen(receivers);
            driver.create(path, ConfigMaps.json(ConfigMaps.SENTINEL, 0));
            for (WatchReceiver r : receivers) {
                if (!r.awaitSentinel(OPEN_TIMEOUT)) {
                    throw new IllegalStateException(
                            "a watcher never saw the sentinel: " + (r.failure() != null ? r.failure() : r.problem()));
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "    %,d %s watches open and live in %.1f s%n",
                    watchers,
                    transport.label(),
                    (System.nanoTime() - o0) / 1e9);

            Duration cpu0 = server.cpu();
            long t0 = System.nanoTime();
            AtomicLong maxRv = new AtomicLong();
            Duration writes = Creates.run(
                    driver, path, 0, events, writers, i -> ConfigMaps.json(ConfigMaps.name("ev", i), i), maxRv);
            waitForDeliveries(receivers, events);
            Duration cpu = server.cpu().minus(cpu0);
            long last = 0;
            int verified = 0;
            String problem = null;
            for (WatchReceiver r : receivers) {
                last = Math.max(last, r.doneAt() == 0 ? System.nanoTime() : r.doneAt());
                String p = r.failure() != null
                        ? "transport failure: " + r.failure()
                        : r.problem() != null
                                ? r.problem()
                                : r.count() != events
                                        ? "got " + r.count() + " of " + events + " events"
                                        : r.lastRv() != maxRv.get()
                                                ? "last resourceVersion " + r.lastRv() + ", expected " + maxRv.get()
                                                : null;
                if (p == null) {
                    verified++;
                } else if (problem == null) {
                    problem = p;
                }
            }
            return new FanOutResult(
                    transport, watchers, events, writers, Duration.ofNanos(last - t0), writes, verified, problem, cpu);
        } finally {
            receivers.forEach(WatchReceiver::close);
        }
    }

    private static void awaitOpen(List<WatchReceiver> rs) throws InterruptedException {
        for (WatchReceiver r : rs) {
            if (!r.awaitOpen(OPEN_TIMEOUT)) {
                throw new IllegalStateException("a watch did not open within " + OPEN_TIMEOUT);
            }
            if (r.failure() != null) {
                throw new IllegalStateException("a watch failed to open: " + r.failure(), r.failure());
            }
        }
    }

    /** Polls until every receiver is done, failed, or no event arrived anywhere for {@link #STALL}. */
    private static void waitForDeliveries(List<WatchReceiver> receivers, int events) throws InterruptedException {
        long lastTotal = -1;
        long lastMove = System.nanoTime();
        long lastPrint = System.nanoTime();
        while (true) {
            long total = 0;
            boolean done = true;
            for (WatchReceiver r : receivers) {
                total += r.count();
                if (r.doneAt() == 0 && r.failure() == null) {
                    done = false;
                }
            }
            if (done) {
                return;
            }
            long now = System.nanoTime();
            if (total != lastTotal) {
                lastTotal = total;
                lastMove = now;
            } else if (now - lastMove > STALL.toNanos()) {
                System.out.printf(
                        Locale.ROOT, "    stalled at %,d of %,d deliveries%n", total, (long) receivers.size() * events);
                return;
            }
            if (now - lastPrint > 10_000_000_000L) {
                lastPrint = now;
                System.out.printf(Locale.ROOT, "    %,d of %,d deliveries%n", total, (long) receivers.size() * events);
            }
            Thread.sleep(20);
        }
    }
}
