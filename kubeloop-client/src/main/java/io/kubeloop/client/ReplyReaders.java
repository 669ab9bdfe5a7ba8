package io.kubeloop.client;

import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.json.JsonBytesReader;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * The decoders of one {@link ObjectCodec}'s single-object replies (get, create, update, patch), kept for the next
 * reply instead of made per reply: a decoder holds tables of shared strings and records (tens of kilobytes) that
 * cost more to allocate and clear than a reply of a few kilobytes costs to read. A caller {@link #take()}s one,
 * reads one reply with it and {@link #give}s it back; at most {@link #KEPT} are kept, so the pool holds no more
 * than the replies read at the same time, up to that bound.
 *
 * <p>Thread-safe; each decoder it hands out is confined to its taker until given back.
 */
final class ReplyReaders {

    /** Decoders kept at most: beyond this many replies read at once, the extra decoders are dropped. */
    static final int KEPT = 4;

    private final JsonMapper mapper;
    private final boolean model;
    private final ConcurrentLinkedDeque<Pair> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger kept = new AtomicInteger();

    /**
     * @param mapper the mapper the byte readers hand back to
     * @param model whether the codec's type has a generated reader (the pair then holds a byte reader)
     */
    ReplyReaders(JsonMapper mapper, boolean model) {
        this.mapper = mapper;
        this.model = model;
    }

    /** The decoders of one reply: {@code bytes} is null when the codec's type has no generated reader. */
    record Pair(DynamicObjectReader dynamic, JsonBytesReader bytes) {}

    /** An idle pair, or a new one when none is idle. */
    Pair take() {
        Pair p = idle.pollFirst();
        if (p != null) {
            kept.decrementAndGet();
            return p;
        }
        return new Pair(new DynamicObjectReader(), model ? new JsonBytesReader(mapper) : null);
    }

    /** Hands {@code pair} back after a read (also after one that failed), to be kept when fewer than KEPT are. */
    void give(Pair pair) {
        if (kept.incrementAndGet() <= KEPT) {
            idle.offerFirst(pair);
        } else {
            kept.decrementAndGet();
        }
    }
}
