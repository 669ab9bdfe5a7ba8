package io.kubeloop.apiserver.internal.storage;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The versioned object store: one global, strictly increasing revision (the resourceVersion) over
 * per-resource maps keyed {@code namespace/name}, a history ring of recent events, consistent paged
 * lists and watch fan-out.
 *
 * <p>Writes go through {@link #write}: under one lock the store reads the latest version, lets the
 * caller decide a {@link Change}, assigns the next revision and journals the mutation
 * ({@link Journal#append}). The journal's durability promise is awaited after the lock is released;
 * then, again under the lock, the write is <em>published</em>: made visible to {@link #get} and
 * {@link #list}, appended to the history and offered to every watcher of the resource (non-blocking).
 * {@code write} returns after that. A failing decision (an exception from the function) commits nothing.
 *
 * <p><b>Nothing is observable before it is durable.</b> Between journaling and publication a write is
 * <em>pending</em>: later writers already build on it (their decision sees it, and revisions keep their
 * order), but readers, watchers and {@link #currentRevision()} do not. Writes are published strictly in
 * revision order: a writer whose mutation is durable publishes every pending write up to its own
 * revision (the journal persists in append order, so those are durable too). So a client, a watch or a
 * bookmark can never hold a resourceVersion or an object that a crash ({@code kill -9}) takes back. With
 * {@link Journal#inMemory()} (durable at once) writes are published under the commit lock directly. The
 * one leak: a decision may fail because of a pending write (409 Conflict, 409 AlreadyExists) that a crash
 * then loses; the client's retry sees the recovered state.
 *
 * <p><b>Journal failure.</b> When {@link Journal#append} or a durability promise throws, the store is
 * <em>failed</em>: pending writes are never published, that write and every later one fail with
 * 500 InternalError, and the listener given to {@link #onJournalFailure} is called once (the server
 * stops). Reads keep serving the durable state.
 *
 * <p>Reads: {@link #get} needs no lock. {@link #list} copies the key range under the lock (a few
 * microseconds per thousand objects) and filters outside it; a page at an older revision is rebuilt by
 * undoing history events newer than it. Continue tokens carry the snapshot revision and the next key.
 *
 * <p><b>Thread safety.</b> Thread-safe. The write function runs under the store lock: it must be
 * quick and must not block or call {@link #write} itself.
 */
public final class VersionedStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VersionedStore.class);

    private final StoreOptions options;
    private final Journal journal;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled on every commit; waits for future revisions use it. */
    private final Condition advanced = lock.newCondition();
    /** Per resource: key -> latest version. Written under {@link #lock}; read anywhere. */
    private final Map<String, ConcurrentSkipListMap<String, StoredObject>> tables = new ConcurrentHashMap<>();
    /** Per resource: open watchers. Added under {@link #lock}; removed anywhere. */
    private final Map<String, Set<Watcher>> watchers = new ConcurrentHashMap<>();
    /** Per resource, the watches ended because their reader fell a whole buffer behind. */
    private final Map<String, LongAdder> terminated = new ConcurrentHashMap<>();
    /** Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final HistoryRing history;
    /** The latest published (durable, visible) revision; written under {@link #lock}. */
    private volatile long revision;
    /** The latest revision handed to a write, published or pending; {@code >= revision}. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private long assigned;
    /** Journaled, not yet durable writes, in revision order, all above {@link #revision}. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final ArrayDeque<StoreEvent> pending = new ArrayDeque<>();
    /** Per resource + key, the newest event of {@link #pending}; what writers read. Guarded by {@link #lock}. */
    @GuardedBy("lock")
    private final Map<PendingKey, StoreEvent> pendingLatest = new HashMap<>();
    /** Journal failure and background checkpoints. */
    private final JournalSupervisor supervisor;

    private VersionedStore(StoreOptions options, Journal journal, long revision) {
        this.options = options;
        this.journal = journal;
        this.supervisor = new JournalSupervisor(journal, this::wakeUp);
        this.revision = revision;
        this.assigned = revision;
        this.history = new HistoryRing(options.historySize(), revision);
    }

    /** An empty in-memory store. */
    public static VersionedStore inMemory(StoreOptions options) {
        return new VersionedStore(options, Journal.inMemory(), 0);
    }

    /**
     * A store recovered from {@code journal}: every recorded mutation is replayed, the revision
     * continues after the highest one (or after {@link Journal#recoveredRevision()} when that is higher),
     * and history starts empty: a watch from a revision before the restart gets 410 Expired, as from a
     * restarted kube-apiserver's watch cache, and the client relists.
     */
    public static VersionedStore open(StoreOptions options, Journal journal) {
        Map<String, ConcurrentSkipListMap<String, StoredObject>> recovered = new ConcurrentHashMap<>();
        long[] max = {0};
        journal.replay(m -> {
            ConcurrentSkipListMap<String, StoredObject> t =
                    recovered.computeIfAbsent(m.resource(), r -> new ConcurrentSkipListMap<>());
            if (m.isDelete()) {
                t.remove(m.key());
            } else {
                ObjectNode node = (ObjectNode) KubeJson.mapper().readTree(m.json());
                t.put(m.key(), new StoredObject(m.resource(), m.key(), m.resourceVersion(), node, m.json()));
            }
            max[0] = Math.max(max[0], m.resourceVersion());
        });
        VersionedStore store = new VersionedStore(options, journal, Math.max(max[0], journal.recoveredRevision()));
        store.tables.putAll(recovered);
        return store;
    }

    /** The options this store runs with. */
    public StoreOptions options() {
        return options;
    }

    /** The latest committed (durable and visible) revision. */
    public long currentRevision() {
        return revision;
    }

    /** The oldest revision a watch or an exact list may start from. */
    public long compactedRevision() {
        lock.lock();
        try {
            return history.compactedRevision();
        } finally {
            lock.unlock();
        }
    }

    /** The latest version of one object. */
    public Optional<StoredObject> get(String resource, String key) {
        ConcurrentSkipListMap<String, StoredObject> t = tables.get(resource);
        return t == null ? Optional.empty() : Optional.ofNullable(t.get(key));
    }

    /** What {@link #observeCommits} set: the clock and the observer of each write's wait for its journal. */
    private record CommitObserver(Ticker ticker, Consumer<Duration> observer) {}

    private volatile CommitObserver commitObserver;

    /**
     * Reports how long each write waits for the journal to make it durable (writes the journal makes
     * durable at once, as the in-memory one does, are not reported), timed on {@code ticker}.
     */
    public void observeCommits(Ticker ticker, Consumer<Duration> observer) {
        this.commitObserver = new CommitObserver(Objects.requireNonNull(ticker), Objects.requireNonNull(observer));
    }

    /** Number of objects of a resource (latest state) in {@code namespace}; in all of them when it is null. */
    public int count(String resource, String namespace) {
        ConcurrentSkipListMap<String, StoredObject> t = tables.get(resource);
        return t == null ? 0 : range(t, namespace).size();
    }

    /**
     * Atomically reads one key, lets {@code decide} choose a change (it gets null when the key is
     * absent) and commits it. Exceptions thrown by {@code decide} propagate and nothing is written.
     * Returns once the write is durable and published (see the class comment).
     *
     * @throws io.kubeloop.api.errors.InternalErrorException 500 when the journal failed
     */
    public WriteResult write(String resource, String key, Function<StoredObject, Change> decide) {
        WriteResult result;
        Journal.Durability durability = null;
        long awaitRevision = 0;
        lock.lock();
        try {
            supervisor.throwIfFailed();
            ConcurrentSkipListMap<String, StoredObject> table =
                    tables.computeIfAbsent(resource, r -> new ConcurrentSkipListMap<>());
            StoreEvent pendingEvent = pendingLatest.get(new PendingKey(resource, key));
            StoredObject current = pendingEvent == null
                    ? table.get(key)
                    : pendingEvent.type() == ChangeType.DELETED ? null : pendingEvent.object();
            Change change = decide.apply(current);
            switch (change) {
                case Change.Keep k -> {
                    result = new WriteResult(current, false, false);
                    // answering with a pending version must wait until it is published
                    awaitRevision = pendingEvent == null ? 0 : pendingEvent.resourceVersion();
                }
                case Change.DryRun d ->
                    result = new WriteResult(StoredObject.of(resource, key, 0, d.object()), false, d.delete());
                case Change.Put p -> {
                    long rv = assigned + 1;
                    Metadata.setResourceVersion(p.object(), rv);
                    StoredObject stored = StoredObject.of(resource, key, rv, p.object());
                    durability = supervisor.append(new Mutation(rv, resource, key, stored.json()));
                    commitLocked(
                            new StoreEvent(current == null ? ChangeType.ADDED : ChangeType.MODIFIED, stored, current),
                            durability);
                    result = new WriteResult(stored, true, false);
                }
                case Change.Delete d -> {
                    if (current == null) {
                        throw new IllegalStateException("cannot delete absent key " + key + " of " + resource);
                    }
                    long rv = assigned + 1;
                    StoredObject last = current.withResourceVersion(rv);
                    durability = supervisor.append(new Mutation(rv, resource, key, null));
                    commitLocked(new StoreEvent(ChangeType.DELETED, last, current), durability);
                    result = new WriteResult(last, true, true);
                }
            }
        } finally {
            lock.unlock();
        }
        if (durability != null && durability != Journal.Durability.DONE) {
            CommitObserver observing = commitObserver;
            long start = observing == null ? 0 : observing.ticker().nanoTime();
            supervisor.await(durability);
            if (observing != null) {
                observing.observer().accept(Duration.ofNanos(observing.ticker().nanoTime() - start));
            }
            publishUpTo(result.object().resourceVersion());
            supervisor.maybeCheckpoint(this::checkpoint);
        } else if (awaitRevision > 0) {
            awaitPublished(awaitRevision);
        }
        return result;
    }

    /**
     * Assigns the event's revision; publishes it at once when it is durable and nothing is pending,
     * otherwise queues it as pending.
     */
    @GuardedBy("lock")
    private void commitLocked(StoreEvent event, Journal.Durability durability) {
        assigned = event.resourceVersion();
        if (durability == Journal.Durability.DONE && pending.isEmpty()) {
            publishLocked(event);
        } else {
            pending.addLast(event);
            pendingLatest.put(new PendingKey(event.resource(), event.key()), event);
        }
    }

    /** Publishes, in order, every pending write up to {@code rv} (all durable by the journal's ordering). */
    private void publishUpTo(long rv) {
        lock.lock();
        try {
            while (!pending.isEmpty() && pending.peekFirst().resourceVersion() <= rv) {
                StoreEvent e = pending.pollFirst();
                pendingLatest.remove(new PendingKey(e.resource(), e.key()), e);
                publishLocked(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Makes one durable change visible: table, revision, history, watchers. */
    @GuardedBy("lock")
    private void publishLocked(StoreEvent event) {
        ConcurrentSkipListMap<String, StoredObject> table =
                tables.computeIfAbsent(event.resource(), r -> new ConcurrentSkipListMap<>());
        if (event.type() == ChangeType.DELETED) {
            table.remove(event.key());
        } else {
            table.put(event.key(), event.object());
        }
        revision = event.resourceVersion();
        history.add(event);
        Set<Watcher> ws = watchers.get(event.resource());
        if (ws != null) {
            for (Watcher w : ws) {
                WatchItem item = w.request().itemFor(event);
                if (item != null) {
                    w.offerLocked(item);
                }
            }
        }
        // what is history now keeps its bytes only (a tree is several times the JSON's size)
        if (event.previous() != null) {
            event.previous().releaseTree();
        }
        if (event.type() == ChangeType.DELETED) {
            event.object().releaseTree();
        }
        advanced.signalAll();
    }

    /** Waits until {@code rv} is published (or the journal failed). */
    private void awaitPublished(long rv) {
        lock.lock();
        try {
            while (revision < rv) {
                supervisor.throwIfFailed();
                advanced.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    private void wakeUp() {
        lock.lock();
        try {
            advanced.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers the listener called once, on a new virtual thread, when the journal fails (see the class
     * comment). Replaces the previous listener.
     */
    public void onJournalFailure(Consumer<? super RuntimeException> listener) {
        supervisor.onFailure(listener);
    }

    /** The journal failure that stopped writes, if any. */
    public Optional<RuntimeException> failure() {
        return supervisor.failure();
    }

    /** A key of {@link #pendingLatest}. */
    private record PendingKey(String resource, String key) {}

    /**
     * One page of a list; see {@link ListQuery}.
     *
     * @throws io.kubeloop.api.errors.GoneException 410 when the requested exact revision or the
     *         continue token's snapshot is compacted
     * @throws io.kubeloop.api.errors.ApiTimeoutException 504 when a not-older-than revision is not
     *         reached within {@link StoreOptions#futureRevisionWait()}
     */
    public ListPage list(ListQuery q) {
        long at;
        List<StoredObject> candidates;
        long uncounted = 0;
        lock.lock();
        try {
            ContinueToken ct = q.continueToken();
            if (ct != null) {
                if (ct.resourceVersion() != 0 && ct.resourceVersion() < history.compactedRevision()) {
                    throw StoreErrors.expiredContinue(new ContinueToken(0, ct.startKey()).encode());
                }
                at = ct.resourceVersion() == 0 ? revision : Math.min(ct.resourceVersion(), revision);
            } else if (q.revision() == 0) {
                at = revision;
            } else {
                awaitRevisionLocked(q.revision());
                if (q.exact()) {
                    if (q.revision() < history.compactedRevision()) {
                        throw StoreErrors.tooOldList();
                    }
                    at = q.revision();
                } else {
                    at = revision;
                }
            }
            ConcurrentSkipListMap<String, StoredObject> table = tables.get(q.resource());
            NavigableMap<String, StoredObject> view =
                    table == null ? Collections.emptyNavigableMap() : range(table, q.namespace());
            if (ct != null) {
                view = view.tailMap(ct.startKey(), true);
            }
            if (at == revision && q.limit() > 0 && !q.filtered()) {
                // a page of an unfiltered list needs its items and the first one after them; the others
                // are only counted (remainingItemCount), not copied: paging through n objects stays O(n)
                // in copies, not O(n²/limit)
                candidates = new ArrayList<>(Math.min(q.limit() + 1, 1025));
                var it = view.values().iterator();
                while (candidates.size() <= q.limit() && it.hasNext()) {
                    candidates.add(it.next());
                }
                while (it.hasNext()) {
                    it.next();
                    uncounted++;
                }
            } else if (at == revision) {
                candidates = new ArrayList<>(view.values());
            } else {
                candidates = history.stateAt(q.resource(), view, at, q.namespace(), ct == null ? null : ct.startKey());
            }
        } finally {
            lock.unlock();
        }
        return ListPage.of(q, at, candidates, uncounted);
    }

    @GuardedBy("lock")
    private void awaitRevisionLocked(long wanted) {
        long nanos = options.futureRevisionWait().toNanos();
        while (revision < wanted) {
            if (nanos <= 0) {
                throw StoreErrors.tooLarge(wanted, revision);
            }
            try {
                nanos = advanced.awaitNanos(nanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw StoreErrors.tooLarge(wanted, revision);
            }
        }
    }

    /**
     * Waits until the store reaches {@code wanted} (for watch-lists at a future revision).
     *
     * @throws io.kubeloop.api.errors.ApiTimeoutException 504 when it does not in time
     */
    public void awaitRevision(long wanted) {
        lock.lock();
        try {
            awaitRevisionLocked(wanted);
        } finally {
            lock.unlock();
        }
    }

    private static NavigableMap<String, StoredObject> range(
            ConcurrentSkipListMap<String, StoredObject> t, String namespace) {
        // keys are "ns/name"; '0' is the character after '/'
        return namespace == null ? t : t.subMap(namespace + "/", true, namespace + "0", false);
    }

    /**
     * Opens a watch; see {@link WatchRequest}. Registration and the replay it starts with are atomic with
     * respect to writes, so no change is missed or seen twice.
     *
     * @throws io.kubeloop.api.errors.GoneException 410 when {@code fromRevision} is compacted
     */
    public Watcher watch(WatchRequest r) {
        lock.lock();
        try {
            List<WatchItem> replay = new ArrayList<>();
            if (r.initialEvents()) {
                ConcurrentSkipListMap<String, StoredObject> table = tables.get(r.resource());
                if (table != null) {
                    for (StoredObject o : range(table, r.namespace()).values()) {
                        if (r.selects(o)) {
                            replay.add(new WatchItem.Event(ChangeType.ADDED, o));
                        }
                    }
                }
                if (r.initialEventsEnd()) {
                    replay.add(new WatchItem.Bookmark(revision, true));
                }
            } else {
                if (r.fromRevision() < history.compactedRevision()) {
                    throw StoreErrors.tooOldWatch(r.fromRevision(), history.compactedRevision() + 1);
                }
                history.forEachAfter(r.resource(), r.fromRevision(), e -> {
                    WatchItem item = r.itemFor(e);
                    if (item != null) {
                        replay.add(item);
                    }
                });
            }
            Watcher w = new Watcher(r, this, replay, options.watchBufferSize());
            watchers.computeIfAbsent(r.resource(), k -> ConcurrentHashMap.newKeySet())
                    .add(w);
            return w;
        } finally {
            lock.unlock();
        }
    }

    Optional<Long> progressRevision(Watcher w, long floor) {
        lock.lock();
        try {
            return w.idleLocked() && !w.isClosed() ? Optional.of(Math.max(revision, floor)) : Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a closed watcher; with or without the store's lock (the watcher set is concurrent). */
    void unregister(Watcher w) {
        Set<Watcher> ws = watchers.get(w.request().resource());
        if (ws != null) {
            ws.remove(w);
        }
    }

    /** The newest {@code limit} changes of every resource, newest first (from the watch history). */
    public List<StoreEvent> recentEvents(int limit) {
        lock.lock();
        try {
            return history.latest(limit);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Called under the store lock when {@code w} is ended for falling a whole buffer behind, as
     * kube-apiserver's watch cache forces an unresponsive watcher closed.
     */
    void terminatedLocked(Watcher w) {
        String resource = w.request().resource();
        terminated.computeIfAbsent(resource, r -> new LongAdder()).increment();
        LOG.info("Forcing {} watcher close due to unresponsiveness: {} events buffered", resource, w.bufferSize());
    }

    /** Number of watches of a resource ended so far for falling a whole buffer behind (for metrics). */
    public long terminatedWatchers(String resource) {
        var n = terminated.get(resource);
        return n == null ? 0 : n.sum();
    }

    /** Number of open watches of a resource (for tests and metrics). */
    public int watcherCount(String resource) {
        Set<Watcher> ws = watchers.get(resource);
        return ws == null ? 0 : ws.size();
    }

    /** Ends every watch of {@code resource} (e.g. its CRD is gone). */
    public void closeWatchers(String resource) {
        Set<Watcher> ws = watchers.get(resource);
        if (ws != null) {
            for (Watcher w : List.copyOf(ws)) {
                w.close();
            }
        }
    }

    /** Test hook: forgets history up to the current revision, as an etcd compaction would. */
    public void compact() {
        lock.lock();
        try {
            history.compactTo(revision);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands a consistent copy of the whole published state to {@link Journal#checkpoint} (on this
     * thread; the lock is held only while the object references are copied).
     */
    public void checkpoint() {
        List<Mutation> state = new ArrayList<>();
        long at;
        lock.lock();
        try {
            at = revision;
            for (Map.Entry<String, ConcurrentSkipListMap<String, StoredObject>> t : tables.entrySet()) {
                for (StoredObject o : t.getValue().values()) {
                    state.add(new Mutation(o.resourceVersion(), o.resource(), o.key(), o.json()));
                }
            }
        } finally {
            lock.unlock();
        }
        journal.checkpoint(at, state);
    }

    /** Ends every open watch (their readers get {@code STOPPED}). */
    public void closeAllWatchers() {
        for (String resource : List.copyOf(watchers.keySet())) {
            closeWatchers(resource);
        }
    }

    /**
     * Ends all watches, waits for a running background checkpoint, and closes the journal (which
     * flushes it). Writes still waiting for durability complete; later writes fail.
     */
    @Override
    public void close() {
        closeAllWatchers();
        supervisor.close();
    }
}
