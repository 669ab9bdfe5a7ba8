package io.kubeloop.cache.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.WatchStream;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.WatchTimeoutException;
import io.kubeloop.client.http.TransportException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-memory API collection for unit tests of reflectors, informers and controllers: tests
 * drive it ({@link #add}, {@link #modify}, {@link #delete}) and inject faults ({@link #forceGone},
 * {@link #breakWatches}, {@link #timeOutWatches}, {@link #failNextList}, {@link #failListRequest},
 * {@link #holdListsFrom}…), and it answers list and watch as an API server
 * would: a global resourceVersion counter, a watch history to resume from, pagination with
 * continue tokens, selectors, bookmarks, and optionally the streaming watch-list.
 *
 * <p>Semantics: a watch from {@code ""} or {@code "0"} starts with an ADDED event per current
 * object; a watch from a resourceVersion replays the history after it, or, when that history has
 * been compacted away, ends with an ERROR 410 Expired. A list at a compacted resourceVersion fails
 * with 410 (the server's exact-read path). Every request's options are recorded.
 *
 * <p><b>Thread safety.</b> Thread-safe; drive it from the test thread while a reflector watches.
 *
 * @param <T> the object type
 */
public final class FakeListerWatcher<T> implements ListerWatcher<T> {

    private record Recorded<T>(long resourceVersion, WatchEvent<T> event) {}

    private final BiFunction<T, String, T> stamp;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private long resourceVersion = 1;
    /** Guarded by lock: history at or before this resourceVersion is gone. */
    @GuardedBy("lock")
    private long compactedBefore = 0;
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final Map<ObjectKey, T> objects = new LinkedHashMap<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final List<Recorded<T>> history = new ArrayList<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final List<FakeWatch<T>> open = new ArrayList<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final List<ListOptions> listRequests = new ArrayList<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final List<ListOptions> watchRequests = new ArrayList<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final ArrayDeque<RuntimeException> listFailures = new ArrayDeque<>();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private final ArrayDeque<RuntimeException> watchFailures = new ArrayDeque<>();
    /** Guarded by lock: continue token -> remaining items and the list's resourceVersion. */
    @GuardedBy("lock")
    private final Map<String, ObjectList<T>> continuations = new HashMap<>();
    /** Guarded by lock: list request number (1-based) -> its failure. */
    @GuardedBy("lock")
    private final Map<Integer, RuntimeException> numberedListFailures = new HashMap<>();
    /** Guarded by lock: list requests with this number or later wait while {@link #holding}; 0 for none. */
    @GuardedBy("lock")
    private int holdFrom;
    /** Guarded by lock. */
    @GuardedBy("lock")
    private boolean holding;
    /** Guarded by lock: list requests waiting now. */
    @GuardedBy("lock")
    private int held;
    /** Guarded by lock: list requests that were interrupted while waiting. */
    @GuardedBy("lock")
    private int abandoned;

    private final Condition released = lock.newCondition();
    /** Guarded by lock. */
    @GuardedBy("lock")
    private boolean watchListSupported;
    /** Guarded by lock. */
    @GuardedBy("lock")
    private int tokenCounter;

    private FakeListerWatcher(BiFunction<T, String, T> stamp) {
        this.stamp = Objects.requireNonNull(stamp, "stamp");
    }

    /**
     * A fake for any type; {@code withResourceVersion} returns the object with
     * {@code metadata.resourceVersion} set (a copy for immutable types).
     */
    public static <T> FakeListerWatcher<T> create(BiFunction<T, String, T> withResourceVersion) {
        return new FakeListerWatcher<>(withResourceVersion);
    }

    /** A fake for {@link DynamicObject}s. */
    public static FakeListerWatcher<DynamicObject> dynamic() {
        return new FakeListerWatcher<>(
                (o, rv) -> o.edit(n -> ((ObjectNode) n.get("metadata")).put("resourceVersion", rv)));
    }

    // ---- driving ------------------------------------------------------------------------------

    /** Stores a new object (or replaces one) and sends ADDED; returns it with its resourceVersion. */
    public T add(T object) {
        return write(object, true);
    }

    /** Replaces an object and sends MODIFIED; returns it with its resourceVersion. */
    public T modify(T object) {
        return write(object, false);
    }

    private T write(T object, boolean added) {
        lock.lock();
        try {
            String rv = Long.toString(++resourceVersion);
            T stored = stamp.apply(object, rv);
            objects.put(ObjectAccess.key(stored), stored);
            publishLocked(added ? new WatchEvent.Added<>(stored) : new WatchEvent.Modified<>(stored));
            return stored;
        } finally {
            lock.unlock();
        }
    }

    /** Deletes the object under {@code key} and sends DELETED; returns false when there was none. */
    public boolean delete(ObjectKey key) {
        lock.lock();
        try {
            T old = objects.remove(key);
            if (old == null) {
                return false;
            }
            String rv = Long.toString(++resourceVersion);
            publishLocked(new WatchEvent.Deleted<>(stamp.apply(old, rv)));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Changes the stored state <em>without</em> telling open watches, as if the events were lost
     * while a watch was down; the next list shows it.
     */
    public void setSilently(List<T> newObjects) {
        lock.lock();
        try {
            objects.clear();
            String rv = Long.toString(++resourceVersion);
            for (T o : newObjects) {
                T stored = stamp.apply(o, rv);
                objects.put(ObjectAccess.key(stored), stored);
            }
            compactedBefore = resourceVersion;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void publishLocked(WatchEvent<T> event) {
        history.add(new Recorded<>(resourceVersion, event));
        for (FakeWatch<T> w : open) {
            if (w.matches(event)) {
                w.queue.add(event);
            }
        }
    }

    /** Sends a BOOKMARK at the current resourceVersion to every open watch that allows bookmarks. */
    public void bookmark() {
        lock.lock();
        try {
            bookmarkLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the resourceVersion on by {@code steps} without changing any object of this collection
     * (as writes to other resources do), then sends a BOOKMARK at it.
     */
    public void advanceAndBookmark(int steps) {
        lock.lock();
        try {
            resourceVersion += steps;
            bookmarkLocked();
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void bookmarkLocked() {
        for (FakeWatch<T> w : open) {
            if (w.options.allowWatchBookmarks()) {
                w.queue.add(new WatchEvent.Bookmark<T>(Long.toString(resourceVersion), Map.of()));
            }
        }
    }

    /** Forgets the watch history up to now: watches from older resourceVersions get 410 Expired. */
    public void compact() {
        lock.lock();
        try {
            compactedBefore = resourceVersion;
            history.clear();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #compact()}, then ends every open watch with an ERROR 410 Expired event. */
    public void forceGone() {
        lock.lock();
        try {
            compact();
            for (FakeWatch<T> w : new ArrayList<>(open)) {
                w.queue.add(new WatchEvent.Error<T>(expired("too old resource version")));
                w.queue.add(FakeWatch.END);
                open.remove(w);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Breaks every open watch: their next read throws a {@link TransportException}. */
    public void breakWatches() {
        endWatches(FakeWatch.BROKEN);
    }

    /**
     * Ends every open watch as the client ends a watch whose connection went silent: their next read
     * throws a {@link WatchTimeoutException} ({@link WatchTimeoutException.Kind#IDLE}, the watch's
     * idle timeout, else the client's default).
     */
    public void timeOutWatches() {
        endWatches(FakeWatch.TIMED_OUT);
    }

    /** Ends every open watch cleanly, as a server does when a watch's timeout runs out. */
    public void closeWatches() {
        endWatches(FakeWatch.END);
    }

    private void endWatches(Object marker) {
        lock.lock();
        try {
            for (FakeWatch<T> w : open) {
                w.queue.add(marker);
            }
            open.clear();
        } finally {
            lock.unlock();
        }
    }

    /** The next list request fails with {@code failure} (queued: call again for more). */
    public void failNextList(RuntimeException failure) {
        lock.lock();
        try {
            listFailures.add(failure);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The list request with this number (1-based, counting every list request so far and from now on) fails
     * with {@code failure}, e.g. a later page of a paginated list.
     */
    public void failListRequest(int number, RuntimeException failure) {
        lock.lock();
        try {
            numberedListFailures.put(number, Objects.requireNonNull(failure, "failure"));
        } finally {
            lock.unlock();
        }
    }

    /**
     * List requests with this number (1-based, counting every list request) or later wait, recorded but not
     * answered, until {@link #releaseLists()}, as requests to a server that is slow to answer. A waiting request
     * whose thread is interrupted fails with a {@link TransportException} and counts as
     * {@linkplain #abandonedLists() abandoned}.
     */
    public void holdListsFrom(int number) {
        lock.lock();
        try {
            holdFrom = number;
            holding = true;
        } finally {
            lock.unlock();
        }
    }

    /** Lets the list requests held by {@link #holdListsFrom} go on, and the later ones through. */
    public void releaseLists() {
        lock.lock();
        try {
            holding = false;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The number of list requests waiting now ({@link #holdListsFrom}). */
    public int heldLists() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }

    /** The number of held list requests whose thread was interrupted while they waited. */
    public int abandonedLists() {
        lock.lock();
        try {
            return abandoned;
        } finally {
            lock.unlock();
        }
    }

    /** The next watch request fails with {@code failure} (queued: call again for more). */
    public void failNextWatch(RuntimeException failure) {
        lock.lock();
        try {
            watchFailures.add(failure);
        } finally {
            lock.unlock();
        }
    }

    /** Makes every continue token handed out so far expire (the next page answers 410). */
    public void expireContinueTokens() {
        lock.lock();
        try {
            continuations.clear();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Serves watch requests with {@code sendInitialEvents=true} from now on (by default they are rejected
     * with 422, as by a server without the WatchList feature).
     */
    public void serveWatchLists() {
        lock.lock();
        try {
            watchListSupported = true;
        } finally {
            lock.unlock();
        }
    }

    // ---- inspecting ---------------------------------------------------------------------------

    /** The options of every list request so far, in order. */
    public List<ListOptions> listRequests() {
        lock.lock();
        try {
            return List.copyOf(listRequests);
        } finally {
            lock.unlock();
        }
    }

    /** The options of every watch request so far, in order. */
    public List<ListOptions> watchRequests() {
        lock.lock();
        try {
            return List.copyOf(watchRequests);
        } finally {
            lock.unlock();
        }
    }

    /** The number of open watches. */
    public int openWatches() {
        lock.lock();
        try {
            return open.size();
        } finally {
            lock.unlock();
        }
    }

    /** The current resourceVersion. */
    public String resourceVersion() {
        lock.lock();
        try {
            return Long.toString(resourceVersion);
        } finally {
            lock.unlock();
        }
    }

    /** The stored objects, in insertion order. */
    public List<T> objects() {
        lock.lock();
        try {
            return List.copyOf(objects.values());
        } finally {
            lock.unlock();
        }
    }

    // ---- serving ------------------------------------------------------------------------------

    @Override
    public ObjectList<T> list(ListOptions options) {
        lock.lock();
        try {
            listRequests.add(options);
            int number = listRequests.size();
            if (holding && holdFrom > 0 && number >= holdFrom) {
                held++;
                try {
                    while (holding) {
                        released.await();
                    }
                } catch (InterruptedException e) {
                    abandoned++;
                    Thread.currentThread().interrupt();
                    throw new TransportException(
                            FakeWatch.FAKE, "list " + FakeWatch.FAKE + ": interrupted while the server held it", e);
                } finally {
                    held--;
                }
            }
            RuntimeException failure = listFailures.poll();
            if (failure == null) {
                failure = numberedListFailures.remove(number);
            }
            if (failure != null) {
                throw failure;
            }
            if (options.continueToken() != null) {
                ObjectList<T> rest = continuations.remove(options.continueToken());
                if (rest == null) {
                    throw ApiExceptions.from(
                            expired("The provided continue parameter is too old to display a consistent"
                                    + " list result. You can start a new list without the continue parameter."));
                }
                return pageLocked(rest.items(), rest.resourceVersion(), options.limit());
            }
            String rv = options.resourceVersion();
            if (rv != null && !rv.isEmpty() && !rv.equals("0") && parse(rv) < compactedBefore) {
                throw ApiExceptions.from(expired("too old resource version: " + rv + " (" + compactedBefore + ")"));
            }
            List<T> items = new ArrayList<>();
            SelectorFilter filter = SelectorFilter.of(options);
            for (T o : objects.values()) {
                if (filter.test(o)) {
                    items.add(o);
                }
            }
            return pageLocked(items, Long.toString(resourceVersion), options.limit());
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private ObjectList<T> pageLocked(List<T> items, String rv, long limit) {
        if (limit <= 0 || items.size() <= limit) {
            return new ObjectList<>(items, rv, null, null);
        }
        String token = "c" + (++tokenCounter);
        List<T> rest = items.subList((int) limit, items.size());
        continuations.put(token, new ObjectList<>(rest, rv, null, null));
        return new ObjectList<>(items.subList(0, (int) limit), rv, token, (long) rest.size());
    }

    @Override
    public WatchStream<T> watch(ListOptions options) {
        lock.lock();
        try {
            watchRequests.add(options);
            RuntimeException failure = watchFailures.poll();
            if (failure != null) {
                throw failure;
            }
            FakeWatch<T> w = new FakeWatch<>(options, this::closed);
            String rv = options.resourceVersion();
            boolean fromNow = rv == null || rv.isEmpty() || rv.equals("0");
            if (Boolean.TRUE.equals(options.sendInitialEvents())) {
                if (!watchListSupported) {
                    throw ApiExceptions.from(
                            Status.failure(
                                    422,
                                    "Invalid",
                                    "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"));
                }
                initialEventsLocked(w);
                w.queue.add(new WatchEvent.Bookmark<T>(
                        Long.toString(resourceVersion), Map.of(WatchEvent.INITIAL_EVENTS_END, "true")));
            } else if (fromNow) {
                initialEventsLocked(w);
            } else if (parse(rv) < compactedBefore) {
                w.queue.add(new WatchEvent.Error<T>(
                        expired("too old resource version: " + rv + " (" + compactedBefore + ")")));
                w.queue.add(FakeWatch.END);
                return w;
            } else {
                long from = parse(rv);
                for (Recorded<T> r : history) {
                    if (r.resourceVersion() > from && w.matches(r.event())) {
                        w.queue.add(r.event());
                    }
                }
            }
            open.add(w);
            return w;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void initialEventsLocked(FakeWatch<T> w) {
        for (T o : objects.values()) {
            if (w.filter.test(o)) {
                w.queue.add(new WatchEvent.Added<>(o));
            }
        }
    }

    private static long parse(String rv) {
        try {
            return Long.parseLong(rv);
        } catch (NumberFormatException e) {
            throw ApiExceptions.from(Status.failure(400, "BadRequest", "invalid resource version: " + rv));
        }
    }

    private static Status expired(String message) {
        return Status.failure(410, "Expired", message);
    }

    /** Forgets a watch its reader closed. */
    private void closed(FakeWatch<T> watch) {
        lock.lock();
        try {
            open.remove(watch);
        } finally {
            lock.unlock();
        }
    }
}
