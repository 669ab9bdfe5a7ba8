package io.kubeloop.client.internal.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A response body read whole by the JDK {@link java.net.http.HttpClient} and handed over once:
 * {@link #take()} gives the bytes and keeps no reference to them.
 *
 * <p>Why not {@code BodyHandlers.ofByteArray()}: the JDK client (checked on JDK 25) keeps the
 * first exchange of every connection reachable for the connection's life (its connect-timer event
 * holds the exchange, which holds the completed body future), so the first response body of each
 * connection stayed in the heap as long as the connection was open. For an informer that lists
 * before it watches, that was the whole LIST response — 40 MB for 10,000 Pods — on top of the
 * cache. With this subscriber what the client keeps is an emptied holder.
 *
 * <p>With a deadline ({@link #handler(ScheduledExecutorService, long)}) the body must be complete by
 * then: otherwise the subscription is cancelled (the exchange ends; on HTTP/2 only its stream) and
 * the body fails with an {@link HttpTimeoutException}, which the client's {@code send} throws. The
 * JDK's own request timeout ends at the response head, so without this a body that stopped coming
 * on a dead connection would be waited for forever.
 *
 * <p><b>Thread safety.</b> The client calls the subscriber methods one at a time; the deadline task
 * runs on the timer's thread and touches only the subscription and the thread-safe future;
 * {@link #take()} is for the thread that got the response (the completed future orders it after
 * {@link #onComplete()}).
 */
final class HandoffBody implements HttpResponse.BodySubscriber<HandoffBody> {

    private final CompletableFuture<HandoffBody> done = new CompletableFuture<>();
    private final List<ByteBuffer> parts = new ArrayList<>();
    private final ScheduledExecutorService timer;
    private final long deadlineNanos;
    private volatile Future<?> timeout;
    private byte[] bytes;

    /** A body without a deadline of its own. */
    HandoffBody() {
        this(null, 0);
    }

    private HandoffBody(ScheduledExecutorService timer, long deadlineNanos) {
        this.timer = timer;
        this.deadlineNanos = deadlineNanos;
    }

    /** The handler to pass to {@code HttpClient.send}, for a body without a deadline. */
    static HttpResponse.BodyHandler<HandoffBody> handler() {
        return info -> new HandoffBody();
    }

    /**
     * The handler to pass to {@code HttpClient.send}, for a body that must be complete by
     * {@code deadlineNanos} ({@link System#nanoTime()} time), checked on {@code timer}.
     */
    static HttpResponse.BodyHandler<HandoffBody> handler(ScheduledExecutorService timer, long deadlineNanos) {
        return info -> new HandoffBody(timer, deadlineNanos);
    }

    /** The whole body, once: later calls return an empty array. */
    byte[] take() {
        byte[] b = bytes == null ? new byte[0] : bytes;
        bytes = null;
        return b;
    }

    @Override
    public CompletionStage<HandoffBody> getBody() {
        return done;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        if (timer != null) {
            long left = deadlineNanos - System.nanoTime();
            timeout = timer.schedule(
                    () -> {
                        done.completeExceptionally(
                                new HttpTimeoutException("no complete response within the request timeout"));
                        subscription.cancel(); // after the failure, which is what send then throws
                    },
                    Math.max(0, left),
                    TimeUnit.NANOSECONDS);
        }
        subscription.request(Long.MAX_VALUE);
    }

    private void disarm() {
        Future<?> t = timeout;
        if (t != null) {
            t.cancel(false);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        parts.addAll(items); // the client hands these buffers over and does not reuse them
    }

    @Override
    public void onError(Throwable throwable) {
        disarm();
        parts.clear();
        done.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        disarm();
        long size = 0;
        for (ByteBuffer p : parts) {
            size += p.remaining();
        }
        if (size > Integer.MAX_VALUE - 8) {
            onError(new IOException("response body of " + size + " bytes is too large to read whole"));
            return;
        }
        byte[] b = new byte[(int) size];
        int at = 0;
        for (ByteBuffer p : parts) {
            int n = p.remaining();
            p.get(b, at, n);
            at += n;
        }
        parts.clear();
        bytes = b;
        done.complete(this);
    }
}
