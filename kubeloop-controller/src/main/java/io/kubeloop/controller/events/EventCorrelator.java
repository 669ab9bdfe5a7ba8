package io.kubeloop.controller.events;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * client-go's {@code EventCorrelator}: decides for each new Event whether to create it, to count it
 * on an Event written before, or to drop it.
 * <ol>
 *   <li>Aggregation: when one source reports, about one object, Events of one type and reason with
 *       {@value #MAX_SIMILAR} or more different messages within {@link #SIMILAR_WINDOW}, they are
 *       written as one Event whose message starts {@code "(combined from similar events): "}.</li>
 *   <li>Deduplication: an Event identical to one written before (same source, object, type,
 *       reason and message) is not created again; the earlier one's {@code count} and
 *       {@code lastTimestamp} are patched.</li>
 *   <li>Spam filter: per source, object and type, a token bucket of {@value #SPAM_BURST} refilled
 *       by one every {@link #SPAM_REFILL}; an Event that finds it empty is dropped.</li>
 * </ol>
 * The caches hold at most {@value #CACHE_SIZE} keys each, least recently used first out.
 *
 * <p>Not thread-safe: used by the broadcaster's one thread.
 */
final class EventCorrelator {

    static final int MAX_SIMILAR = 10;
    static final Duration SIMILAR_WINDOW = Duration.ofMinutes(10);
    static final int SPAM_BURST = 25;
    static final Duration SPAM_REFILL = Duration.ofMinutes(5);
    static final int CACHE_SIZE = 4096;
    static final String COMBINED = "(combined from similar events): ";

    /** An Event to be written, before correlation. */
    record Pending(
            InvolvedObject object, String component, EventType type, String reason, String message, Instant time) {
        Pending withMessage(String newMessage) {
            return new Pending(object, component, type, reason, newMessage, time);
        }
    }

    /** What to do with an Event. */
    sealed interface Decision permits Create, Count, Drop {}

    /** Create a new Event named {@code name}. */
    record Create(Pending event, String name) implements Decision {}

    /** Patch the Event {@code name}: it has now been seen {@code count} times, last at {@code last}. */
    record Count(Pending event, String name, int count, Instant first) implements Decision {}

    /** Drop it (spam). */
    record Drop() implements Decision {}

    private record Similar(Set<String> messages, Instant last) {}

    private record Seen(String name, int count, Instant first) {}

    private static final class Bucket {
        double tokens = SPAM_BURST;
        Instant last;
    }

    private final Map<String, Similar> similar = lru();
    private final Map<String, Seen> seen = lru();
    private final Map<String, Bucket> buckets = lru();
    /** The nanosecond stamp of the last name given out. */
    private long lastNanos = Long.MIN_VALUE;

    private static <V> Map<String, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > CACHE_SIZE;
            }
        };
    }

    /** Correlates {@code event} with those before it. */
    Decision correlate(Pending event) {
        Pending aggregated = aggregate(event);
        String key = aggregated == event ? fullKey(event) : aggregateKey(event);
        Seen before = seen.get(key);
        Decision decision;
        if (before == null) {
            // client-go's <name>.<hex unix nanos>, kept unique when two Events share an instant
            long nanos = Math.max(
                    event.time().getEpochSecond() * 1_000_000_000L
                            + event.time().getNano(),
                    lastNanos + 1);
            lastNanos = nanos;
            String name = event.object().name() + "." + Long.toHexString(nanos);
            seen.put(key, new Seen(name, 1, event.time()));
            decision = new Create(aggregated, name);
        } else {
            Seen now = new Seen(before.name(), before.count() + 1, before.first());
            seen.put(key, now);
            decision = new Count(aggregated, now.name(), now.count(), now.first());
        }
        return allowed(event) ? decision : new Drop();
    }

    /** Forgets {@code name} (its Event could not be written), so the next one is created anew. */
    void forget(String name) {
        seen.values().removeIf(s -> s.name().equals(name));
    }

    private Pending aggregate(Pending event) {
        String key = aggregateKey(event);
        Similar entry = similar.get(key);
        if (entry == null || Duration.between(entry.last(), event.time()).compareTo(SIMILAR_WINDOW) > 0) {
            entry = new Similar(new HashSet<>(), event.time());
        }
        entry.messages().add(event.message());
        similar.put(key, new Similar(entry.messages(), event.time()));
        return entry.messages().size() < MAX_SIMILAR ? event : event.withMessage(COMBINED + event.message());
    }

    private boolean allowed(Pending event) {
        Bucket b = buckets.computeIfAbsent(spamKey(event), k -> new Bucket());
        if (b.last != null) {
            double refill = (double) Duration.between(b.last, event.time()).toNanos() / SPAM_REFILL.toNanos();
            b.tokens = Math.min(SPAM_BURST, b.tokens + Math.max(0, refill));
        }
        b.last = event.time();
        if (b.tokens < 1) {
            return false;
        }
        b.tokens -= 1;
        return true;
    }

    private static String spamKey(Pending e) {
        return e.component()
                + '\u0000'
                + e.object().identity()
                + '\u0000'
                + e.type().value();
    }

    private static String aggregateKey(Pending e) {
        return spamKey(e) + '\u0000' + e.reason();
    }

    private static String fullKey(Pending e) {
        return aggregateKey(e) + '\u0000' + e.message();
    }
}
