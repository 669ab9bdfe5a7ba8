package io.kubeloop.bench.workqueue;

import io.kubeloop.workqueue.PriorityQueue;
import io.kubeloop.workqueue.RateLimiter;
import io.kubeloop.workqueue.RateLimitingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The operations the benchmarks call, over kubeloop's queue or kubernetes-client/java's. Each JMH
 * fork uses one implementation only, so the calls stay monomorphic.
 */
sealed interface BenchQueue {

    void add(Long item);

    Long get();

    void done(Long item);

    void addRateLimited(Long item);

    void forget(Long item);

    void shutDown();

    static BenchQueue create(String impl) {
        return switch (impl) {
            case "kubeloop" ->
                new Kubeloop(RateLimitingQueue.create(
                        RateLimiter.defaultControllerRateLimiter(), WorkQueueOptions.defaults()));
            case "kubeloop-priority" ->
                new Kubeloop(
                        PriorityQueue.create(RateLimiter.defaultControllerRateLimiter(), WorkQueueOptions.defaults()));
            case "k8s-java" -> new KubernetesClientJava();
            default -> throw new IllegalArgumentException("unknown queue implementation: " + impl);
        };
    }

    /**
     * kubeloop: the client-go queue or the priority queue, with the default controller rate limiter and
     * no metrics (one fork sees one queue class, so the calls stay monomorphic).
     */
    final class Kubeloop implements BenchQueue {
        private final RateLimitingQueue<Long> queue;

        Kubeloop(RateLimitingQueue<Long> queue) {
            this.queue = queue;
        }

        @Override
        public void add(Long item) {
            queue.add(item);
        }

        @Override
        public Long get() {
            return queue.get().orElseThrow();
        }

        @Override
        public void done(Long item) {
            queue.done(item);
        }

        @Override
        public void addRateLimited(Long item) {
            queue.addRateLimited(item);
        }

        @Override
        public void forget(Long item) {
            queue.forget(item);
        }

        @Override
        public void shutDown() {
            queue.shutDown();
        }
    }

    /** kubernetes-client/java: DefaultRateLimitingQueue with its default controller rate limiter. */
    final class KubernetesClientJava implements BenchQueue {
        private final ExecutorService waitingWorker = Executors.newSingleThreadExecutor();
        private final DefaultRateLimitingQueue<Long> queue = new DefaultRateLimitingQueue<>(waitingWorker);

        @Override
        public void add(Long item) {
            queue.add(item);
        }

        @Override
        public Long get() {
            try {
                return queue.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void done(Long item) {
            queue.done(item);
        }

        @Override
        public void addRateLimited(Long item) {
            queue.addRateLimited(item);
        }

        @Override
        public void forget(Long item) {
            queue.forget(item);
        }

        @Override
        public void shutDown() {
            queue.shutDown();
            waitingWorker.shutdownNow();
        }
    }
}
