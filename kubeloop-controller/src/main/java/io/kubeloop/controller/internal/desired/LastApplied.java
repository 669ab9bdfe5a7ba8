package io.kubeloop.controller.internal.desired;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A controller's memory of its last apply per owned object: the hash of the desired state sent and
 * the resourceVersions around the write. It lets an apply be skipped when the cached object is the
 * one that write produced (or the one it was based on, the cache not having caught up), whatever a
 * comparison would say: the guard that keeps a difference the server will never remove from being
 * applied again and again.
 *
 * <p>Bounded: beyond {@code capacity} objects the least recently used entry is forgotten, which
 * costs at most one comparison (and, for a difference the server keeps, one apply) later.
 *
 * <p><b>Thread safety:</b> thread-safe; one lock guards the table.
 */
final class LastApplied {

    /**
     * One owned object.
     *
     * @param group its API group
     * @param kind its kind
     * @param namespace its namespace, empty when cluster-scoped
     * @param name its name
     */
    record ObjectId(String group, String kind, String namespace, String name) {}

    /**
     * The last apply of one object.
     *
     * @param hash the hash of the desired state applied
     * @param written the resourceVersion the server answered the apply with
     * @param basedOn the resourceVersion of the cached object the apply was decided on; null when the
     *     cache had none
     */
    record Entry(String hash, String written, String basedOn) {

        /** Whether an object at {@code resourceVersion}, desired as {@code desiredHash}, needs no apply. */
        boolean covers(String desiredHash, String resourceVersion) {
            return hash.equals(desiredHash)
                    && resourceVersion != null
                    && (resourceVersion.equals(written) || resourceVersion.equals(basedOn));
        }
    }

    private final int capacity;
    private final Object lock = new Object();

    @GuardedBy("lock")
    private final LinkedHashMap<ObjectId, Entry> entries;

    LastApplied(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true);
    }

    Optional<Entry> get(ObjectId id) {
        synchronized (lock) {
            return Optional.ofNullable(entries.get(id));
        }
    }

    void put(ObjectId id, Entry entry) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(entry, "entry");
        synchronized (lock) {
            entries.put(id, entry);
            if (entries.size() > capacity) {
                Map.Entry<ObjectId, Entry> eldest =
                        entries.entrySet().iterator().next();
                entries.remove(eldest.getKey());
            }
        }
    }

    void forget(ObjectId id) {
        synchronized (lock) {
            entries.remove(id);
        }
    }

    int size() {
        synchronized (lock) {
            return entries.size();
        }
    }
}
