package io.kubeloop.client.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

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
 * <p><b>Thread safety.</b> The client calls the subscriber methods one at a time; {@link #take()}
 * is for the thread that got the response (the completed future orders it after
 * {@link #onComplete()}).
 */
final class HandoffBody implements HttpResponse.BodySubscriber<HandoffBody> {

    private final CompletableFuture<HandoffBody> done = new CompletableFuture<>();
    private final List<ByteBuffer> parts = new ArrayList<>();
    private byte[] bytes;

    /** The handler to pass to {@code HttpClient.send}. */
    static HttpResponse.BodyHandler<HandoffBody> handler() {
        return info -> new HandoffBody();
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
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        parts.addAll(items); // the client hands these buffers over and does not reuse them
    }

    @Override
    public void onError(Throwable throwable) {
        parts.clear();
        done.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        long size = 0;
        for (ByteBuffer p : parts) {
            size += p.remaining();
        }
        if (size > Integer.MAX_VALUE - 8) {
            onError(new java.io.IOException("response body of " + size + " bytes is too large to read whole"));
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
