package io.kubeloop.client.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Ticker} whose clock moves only when someone sleeps or the test advances it; records sleeps. */
public final class FakeTicker implements Ticker {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public void sleep(Duration duration) {
        sleeps.add(duration);
        if (duration.isPositive()) {
            nanos.addAndGet(duration.toNanos());
        }
    }

    public void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    public List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
