package io.kubeloop.bench.workqueue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * kubeloop's work queue next to kubernetes-client/java's {@code DefaultRateLimitingQueue}, in the
 * same run and JVM flags.
 *
 * <ul>
 *   <li>{@code addGetDone_N}: N threads, each doing {@code add(key); item = get(); done(item)}
 *       with a key never used before — one full work-item life per operation;</li>
 *   <li>{@code addRateLimitedForget_N}: {@code addRateLimited(key); forget(key)} with the default
 *       controller limiter over a ring of 1024 keys per thread (items wait in the delaying queue;
 *       once the bucket is empty their delays only grow, so nothing fires);</li>
 *   <li>{@code addAlreadyQueued}: {@code add} of an item that is already queued (the dedup fast
 *       path); run with {@code -prof gc} to see its allocation per operation.</li>
 * </ul>
 * Keys are fresh {@code Long}s ({@code counter * 64 + thread}), never reused: an add is then never
 * coalesced, so every {@code get} finds an item and no thread can be left blocked at the end of an
 * iteration. (Reusing a ring of keys can coalesce an add with a still-processing copy of the same
 * key when a worker is descheduled, which leaves a thread waiting forever at an iteration's end.)
 * The box costs both queues the same 24 bytes per operation.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WorkQueueBenchmark {

    static final int MAX_THREADS = 64;

    /** The queue under test, shared by all threads of one benchmark. */
    @State(Scope.Benchmark)
    public static class Queue {
        @Param({"kubeloop", "kubeloop-priority", "k8s-java"})
        public String impl;

        BenchQueue queue;
        final AtomicLong threads = new AtomicLong();
        final Long queuedKey = -1L;

        @Setup(Level.Trial)
        public void setUp() {
            queue = BenchQueue.create(impl);
            queue.add(queuedKey); // stays queued: only addAlreadyQueued touches it
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            queue.shutDown();
        }
    }

    /** One thread's key sequence: never repeats, never meets another thread's keys. */
    @State(Scope.Thread)
    public static class Keys {
        long next;

        @Setup(Level.Trial)
        public void setUp(Queue q) {
            next = q.threads.getAndIncrement() + MAX_THREADS;
        }

        Long next() {
            Long k = next;
            next += MAX_THREADS;
            return k;
        }
    }

    private static Long addGetDone(Queue q, Keys keys) {
        q.queue.add(keys.next());
        Long item = q.queue.get();
        q.queue.done(item);
        return item;
    }

    @Benchmark
    @Threads(1)
    public Long addGetDone_1(Queue q, Keys keys) {
        return addGetDone(q, keys);
    }

    @Benchmark
    @Threads(4)
    public Long addGetDone_4(Queue q, Keys keys) {
        return addGetDone(q, keys);
    }

    @Benchmark
    @Threads(16)
    public Long addGetDone_16(Queue q, Keys keys) {
        return addGetDone(q, keys);
    }

    /** One thread's ring of 1024 pre-boxed keys, for rate-limited adds (no get, so no hang). */
    @State(Scope.Thread)
    public static class Ring {
        Long[] keys = new Long[1024];
        int next;

        @Setup(Level.Trial)
        public void setUp(Queue q) {
            long base = q.threads.getAndIncrement() * 1024L;
            for (int i = 0; i < keys.length; i++) {
                keys[i] = base + i;
            }
        }

        Long next() {
            Long k = keys[next];
            next = (next + 1) & 1023;
            return k;
        }
    }

    private static void addRateLimitedForget(Queue q, Ring keys) {
        Long k = keys.next();
        q.queue.addRateLimited(k);
        q.queue.forget(k);
    }

    @Benchmark
    @Threads(1)
    public void addRateLimitedForget_1(Queue q, Ring keys) {
        addRateLimitedForget(q, keys);
    }

    @Benchmark
    @Threads(4)
    public void addRateLimitedForget_4(Queue q, Ring keys) {
        addRateLimitedForget(q, keys);
    }

    @Benchmark
    @Threads(1)
    public void addAlreadyQueued(Queue q) {
        q.queue.add(q.queuedKey);
    }
}
