package io.kubeloop.bench.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Creates numbered objects with a fixed number of client threads, each doing one synchronous POST
 * at a time (so each holds one HTTP/1.1 connection). Stateless.
 */
final class Creates {

    private Creates() {}

    /**
     * Creates objects {@code from} to {@code to} - 1 of collection {@code path}, whose JSON is
     * {@code json.apply(i)}, with {@code threads} threads; returns the elapsed time.
     *
     * @param maxRv receives the highest resourceVersion acknowledged
     * @throws IllegalStateException when a create fails (the first failure)
     */
    static Duration run(
            Driver driver, String path, int from, int to, int threads, IntFunction<byte[]> json, AtomicLong maxRv) {
        AtomicInteger next = new AtomicInteger(from);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("creator-" + t).start(() -> {
                int i;
                while (failure.get() == null && (i = next.getAndIncrement()) < to) {
                    try {
                        long rv = driver.create(path, json.apply(i));
                        maxRv.accumulateAndGet(rv, Math::max);
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        long elapsed = System.nanoTime() - t0;
        if (failure.get() != null) {
            throw new IllegalStateException("create failed: " + failure.get().getMessage(), failure.get());
        }
        return Duration.ofNanos(elapsed);
    }
}
