package io.kubeloop.workqueue;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Test helpers for running a call on its own virtual thread and seeing it block. */
final class Threads {

    private Threads() {}

    /** A call running on its own virtual thread. */
    record Call<R>(Thread thread, CompletableFuture<R> result) {
        /** Waits until the thread is parked (blocked inside the call). */
        Call<R> awaitBlocked() {
            await().pollDelay(Duration.ZERO)
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> thread.getState() == Thread.State.WAITING
                            || thread.getState() == Thread.State.TIMED_WAITING
                            || result.isDone());
            return this;
        }
    }

    static <R> Call<R> start(Supplier<R> body) {
        CompletableFuture<R> result = new CompletableFuture<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                result.complete(body.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return new Call<>(t, result);
    }

    static Call<Void> run(Runnable body) {
        return start(() -> {
            body.run();
            return null;
        });
    }
}
