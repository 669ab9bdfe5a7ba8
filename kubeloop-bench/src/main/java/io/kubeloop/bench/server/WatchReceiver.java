package io.kubeloop.bench.server;

import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * One watcher of a fan-out, on either transport: a line subscriber of a chunked watch response, or a
 * WebSocket listener (one text message per event). Per event it does only a substring scan (see
 * {@link Scan}), the same work for every server.
 *
 * <p>It expects, in order: the {@link ConfigMaps#SENTINEL} object (which proves the watch is live),
 * then {@code expected} ADDED events with strictly increasing resourceVersions; it records the time the
 * last one arrived, the last resourceVersion, and anything unexpected (another type, a resourceVersion
 * out of order, an event before the sentinel or beyond the expected count).
 *
 * <p><b>Thread safety.</b> Events arrive on one client thread at a time (as both transports promise);
 * the harness reads the state through the volatile fields and the latches.
 */
final class WatchReceiver implements Flow.Subscriber<String>, WebSocket.Listener {

    private static final String SENTINEL_NAME = "\"name\":\"" + ConfigMaps.SENTINEL + "\"";

    private final int expected;
    private final CountDownLatch open = new CountDownLatch(1);
    private final CountDownLatch sentinel = new CountDownLatch(1);
    private final StringBuilder partial = new StringBuilder();
    private volatile Flow.Subscription subscription;
    private volatile WebSocket webSocket;
    private volatile Throwable failure;
    private volatile int count;
    private volatile long lastRv;
    private volatile long doneAt;
    private volatile String problem;

    WatchReceiver(int expected) {
        this.expected = expected;
    }

    // --- chunked HTTP

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        open.countDown();
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
        if (!line.isEmpty()) {
            event(line);
        }
    }

    @Override
    public void onError(Throwable t) {
        fail(t);
    }

    @Override
    public void onComplete() {
        if (count < expected) {
            fail(new IllegalStateException("the watch ended after " + count + " of " + expected + " events"));
        }
    }

    // --- WebSocket

    @Override
    public void onOpen(WebSocket ws) {
        webSocket = ws;
        open.countDown();
        ws.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        if (!last) {
            partial.append(data);
        } else if (!partial.isEmpty()) {
            partial.append(data);
            event(partial);
            partial.setLength(0);
        } else {
            event(data);
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
        if (count < expected) {
            fail(new IllegalStateException("the WebSocket closed (" + statusCode + " " + reason + ") after " + count
                    + " of " + expected + " events"));
        }
        return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        fail(error);
    }

    // --- both

    private void event(CharSequence e) {
        if (sentinel.getCount() > 0) {
            if (Scan.contains(e, SENTINEL_NAME)) {
                sentinel.countDown();
            } else {
                problem("an event before the sentinel");
            }
            return;
        }
        long rv = Scan.resourceVersion(e);
        if (!Scan.contains(e, "\"type\":\"ADDED\"")) {
            problem("an event other than ADDED");
        }
        if (rv <= lastRv) {
            problem("resourceVersion " + rv + " after " + lastRv);
        }
        lastRv = rv;
        int n = count + 1;
        count = n;
        if (n == expected) {
            doneAt = System.nanoTime();
        } else if (n > expected) {
            problem("more events than written");
        }
    }

    private void problem(String p) {
        if (problem == null) {
            problem = p;
        }
    }

    /** Records a transport failure (the first one wins). */
    void fail(Throwable t) {
        if (failure == null) {
            failure = t;
        }
        open.countDown();
    }

    /** Waits until the watch is open (or failed); false on timeout. */
    boolean awaitOpen(Duration timeout) throws InterruptedException {
        return open.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Waits until the sentinel arrived; false on timeout. */
    boolean awaitSentinel(Duration timeout) throws InterruptedException {
        return sentinel.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Events after the sentinel so far. */
    int count() {
        return count;
    }

    /** The resourceVersion of the last event. */
    long lastRv() {
        return lastRv;
    }

    /** {@link System#nanoTime()} when the expected count was reached, 0 before. */
    long doneAt() {
        return doneAt;
    }

    /** The first transport failure, or null. */
    Throwable failure() {
        return failure;
    }

    /** The first protocol problem seen, or null. */
    String problem() {
        return problem;
    }

    /** Ends the watch from the client side. */
    void close() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        WebSocket ws = webSocket;
        if (ws != null) {
            ws.abort();
        }
    }
}
