package io.kubeloop.controller;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * A controller's keys that cost most, among those it reconciled lately: the slowest (by their last
 * reconcile) and the most retried (by the failures in a row that their work queue counts now). What
 * the live view lists per controller.
 *
 * @param slowest up to {@link #LIMIT} keys, slowest first
 * @param mostRetried up to {@link #LIMIT} keys that are being retried, most retries first
 */
public record HotKeys(List<Key> slowest, List<Key> mostRetried) {

    /** How many keys each list holds at most. */
    public static final int LIMIT = 5;

    /** No keys. */
    public static final HotKeys NONE = new HotKeys(List.of(), List.of());

    /**
     * One key.
     *
     * @param request the key
     * @param lastReconcile how long its last reconcile took
     * @param retries how many failures in a row its queue counts for it (0 once it succeeded)
     */
    public record Key(Request request, Duration lastReconcile, int retries) {}

    public HotKeys {
        slowest = List.copyOf(slowest);
        mostRetried = List.copyOf(mostRetried);
    }

    /** The hot keys among {@code keys}. */
    static HotKeys of(List<Key> keys) {
        return new HotKeys(
                keys.stream()
                        .sorted(Comparator.comparing(Key::lastReconcile).reversed())
                        .limit(LIMIT)
                        .toList(),
                keys.stream()
                        .filter(k -> k.retries() > 0)
                        .sorted(Comparator.comparingInt(Key::retries).reversed())
                        .limit(LIMIT)
                        .toList());
    }
}
