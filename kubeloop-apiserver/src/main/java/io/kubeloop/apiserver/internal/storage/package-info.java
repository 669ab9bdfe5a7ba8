/**
 * Versioned object storage of the embedded API server.
 *
 * <p>{@link io.kubeloop.apiserver.internal.storage.VersionedStore} keeps, per resource, the latest
 * {@link io.kubeloop.apiserver.internal.storage.StoredObject} of every key (JSON tree + JSON bytes serialized
 * once at commit), one global revision counter, a ring of recent
 * {@link io.kubeloop.apiserver.internal.storage.StoreEvent}s, and the open
 * {@link io.kubeloop.apiserver.internal.storage.Watcher}s. The {@link io.kubeloop.apiserver.internal.storage.Journal} is
 * the seam where a write-ahead log makes writes durable.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>One lock</b> ({@code ReentrantLock}, never {@code synchronized}) serializes writes: read
 *       latest (pending included), decide, assign revision, journal append; and, once durable,
 *       publication: table update, history append, watcher offers, in revision order. So revisions are
 *       strictly increasing and every watcher sees changes in revision order, without gaps or
 *       duplicates, and only once they are durable.</li>
 *   <li><b>Reads</b>: {@code get} is lock-free (concurrent skip lists). {@code list} holds the lock only
 *       to copy the key range (and to undo newer history for an older snapshot); filtering and paging run
 *       outside it. Watch registration holds the lock while it computes its replay, so no change falls
 *       between replay and live delivery.</li>
 *   <li><b>Durability</b>: {@link io.kubeloop.apiserver.internal.storage.Journal#append} runs under the lock;
 *       its {@code Durability.await()} runs after the lock is released, so a WAL can group-commit
 *       concurrent writers; then the writer takes the lock again to publish every pending write up to
 *       its own. {@link io.kubeloop.apiserver.internal.storage.WalJournal} is the durable journal; checkpoints run
 *       on one background virtual thread and hold the lock only to copy object references.</li>
 *   <li><b>Watch buffers</b>: each watcher has a bounded queue (default 1,000 items). Writers only ever
 *       {@code offer}; a full queue ends that watch ({@code OVERFLOW}) instead of blocking or dropping
 *       silently. Readers block in {@code Watcher.next(timeout)} on their own (virtual) thread.</li>
 *   <li><b>Memory</b>: an event shares the {@code StoredObject} of the committed version; the DELETED
 *       copy and a selector-leave copy are serialized once per event, not per watcher.</li>
 * </ul>
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.storage;
