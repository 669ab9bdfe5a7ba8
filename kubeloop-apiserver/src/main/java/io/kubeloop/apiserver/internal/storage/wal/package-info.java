/**
 * Durability for the embedded API server's {@code --data-dir}: a byte-level, storage-agnostic
 * write-ahead log with group commit, checksummed frames, segment rolling, atomic snapshots with
 * compaction, and a directory lock. {@link io.kubeloop.apiserver.internal.storage.wal.WriteAheadLog} is the
 * entry point; its Javadoc states the on-disk format, the durability guarantee and the recovery
 * policy. The store above assigns sequences (resourceVersions) and owns the data; this package
 * persists opaque records and gives them back, in sequence order, after a restart. The records are the
 * objects themselves, Secrets included: the directories it creates are owner-only (0700) and so are its
 * files (0600), where the file system has POSIX permissions.
 *
 * <h2>Concurrency</h2>
 * <ul>
 * <li><b>Threads.</b> One flusher thread per open log (a daemon platform thread from
 *     {@link io.kubeloop.apiserver.internal.storage.wal.WalOptions#threadFactory()}), started by
 *     {@code recover} and joined by {@code close}. Everything else runs on the callers' threads:
 *     appenders (any number, virtual threads welcome) only queue and wait; a checkpoint writes its
 *     snapshot on the calling thread.</li>
 * <li><b>Queue.</b> Appends go into one unbounded FIFO guarded by a {@code ReentrantLock}; each
 *     appender holds it for an {@code add} only and then waits on its own
 *     {@code CompletableFuture}. The flusher takes everything queued (up to
 *     {@code maxBatchBytes}), and writes and forces it while appenders keep queueing: the next
 *     group commit takes all of them. Backpressure comes from the appenders waiting, not from the
 *     queue; callers of {@code appendAsync} that never wait can grow it without bound.</li>
 * <li><b>Locks</b> (always in this order): checkpoint lock (one checkpoint at a time) → I/O lock
 *     (segment files; held by the flusher during one write+force, and by a checkpoint while it
 *     rolls and deletes segments) → queue lock. No {@code synchronized}, so virtual threads do not
 *     pin while they wait.</li>
 * <li><b>Failure.</b> The first I/O error fails the batch, every queued append and every later
 *     one; the log must be closed and re-opened.</li>
 * </ul>
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.storage.wal;
