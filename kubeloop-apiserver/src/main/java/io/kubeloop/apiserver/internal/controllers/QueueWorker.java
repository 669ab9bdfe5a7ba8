package io.kubeloop.apiserver.internal.controllers;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Joins;
import io.kubeloop.workqueue.DelayingQueue;
import io.kubeloop.workqueue.WorkQueueOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DelayingQueue} of keys and the one virtual thread that handles them: the shape of the
 * built-in controllers that act on one object at a time ({@link PodTerminator},
 * {@link DeploymentController} and the other workload controllers). Nothing is handled once the queue shuts down; a handler's
 * {@link RuntimeException} is logged and the worker goes on (handlers catch what they expect).
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} may be called from any thread, the worker's
 * own included, any number of times.
 *
 * @param <K> the key type
 */
final class QueueWorker<K> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueWorker.class);

    private final String name;
    private final DelayingQueue<K> queue;
    private final Consumer<K> handler;
    private volatile Thread worker;

    /**
     * @param name the queue's name (for metrics) and the thread's, with {@code _} as {@code -}
     * @param clock the server's clock, which times the queue's delays
     * @param handler handles one key
     */
    QueueWorker(String name, Ticker clock, Consumer<K> handler) {
        this.name = Objects.requireNonNull(name, "name");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.queue = DelayingQueue.create(
                WorkQueueOptions.builder().name(name).ticker(clock).build());
    }

    /** The queue the controller puts keys on. */
    DelayingQueue<K> queue() {
        return queue;
    }

    void start() {
        worker = Thread.ofVirtual().name(name.replace('_', '-')).start(this::run);
    }

    private void run() {
        while (true) {
            Optional<K> next = queue.get();
            if (next.isEmpty()) {
                return;
            }
            try {
                if (!queue.isShuttingDown()) {
                    handler.accept(next.get());
                }
            } catch (RuntimeException e) {
                LOG.warn("{}: handling {} failed", name, next.get(), e);
            } finally {
                queue.done(next.get());
            }
        }
    }

    /**
     * Runs one sync of {@code key} as the workload controllers want it: a conflict or an already-existing name
     * (someone wrote first) retries it after 50 ms, a NotFound (it went meanwhile) ends it, any other API error
     * is logged at debug and retries it after a second.
     */
    void retrying(K key, Runnable sync) {
        try {
            sync.run();
        } catch (ConflictException | AlreadyExistsException e) {
            queue.addAfter(key, Duration.ofMillis(50));
        } catch (NotFoundException e) {
            // gone meanwhile: its deletion is the next event
        } catch (ApiException e) {
            LOG.debug("{}: syncing {} failed: {}", name, key, e.getMessage());
            queue.addAfter(key, Duration.ofSeconds(1));
        }
    }

    /** Stops the worker (keys still queued or waiting are dropped) and waits for it. */
    @Override
    public void close() {
        queue.shutDown();
        Thread t = worker;
        if (t != null) {
            Joins.joinUninterruptibly(t);
        }
    }
}
