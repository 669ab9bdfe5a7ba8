package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.errors.Status;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link VersionedStore}'s side of its {@link Journal}: remembers the first journal failure (after
 * which every write fails with 500 InternalError) and tells a listener once, and runs checkpoints on a
 * background virtual thread when the journal says one is due, one at a time.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class JournalSupervisor {

    private static final Logger LOG = LoggerFactory.getLogger(VersionedStore.class);

    private final Journal journal;
    /** Called after a failure is recorded, e.g. to wake writers waiting for publication. */
    private final Runnable wakeUp;

    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private volatile Consumer<? super RuntimeException> listener = e -> {};
    /** True while a background checkpoint runs. */
    private final AtomicBoolean checkpointing = new AtomicBoolean();
    /** The running or last background checkpoint, or null. */
    private volatile Thread checkpointThread;

    JournalSupervisor(Journal journal, Runnable wakeUp) {
        this.journal = journal;
        this.wakeUp = wakeUp;
    }

    Journal journal() {
        return journal;
    }

    /** {@link Journal#append}, failing the store when it throws. */
    Journal.Durability append(Mutation m) {
        throwIfFailed();
        try {
            return journal.append(m);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@link Journal.Durability#await()}, failing the store when it throws. */
    void await(Journal.Durability durability) {
        try {
            durability.await();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** Records the failure (the first one wins and goes to the listener); returns the 500 to throw. */
    private RuntimeException fail(RuntimeException cause) {
        if (failure.compareAndSet(null, cause)) {
            LOG.error("journal failed, writes stop: {}", cause.toString());
            Consumer<? super RuntimeException> l = listener;
            Thread.ofVirtual().name("kubeloop-journal-failure").start(() -> l.accept(cause));
        }
        wakeUp.run();
        return storageFailed(cause);
    }

    /** Throws the 500 when the journal has failed. */
    void throwIfFailed() {
        RuntimeException f = failure.get();
        if (f != null) {
            throw storageFailed(f);
        }
    }

    private static InternalErrorException storageFailed(RuntimeException cause) {
        InternalErrorException e = new InternalErrorException(
                Status.failure(500, "InternalError", "storage failed, the server is stopping: " + cause.getMessage()));
        e.initCause(cause);
        return e;
    }

    void onFailure(Consumer<? super RuntimeException> l) {
        this.listener = Objects.requireNonNull(l, "listener");
    }

    Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Starts {@code checkpoint} on a background virtual thread when the journal wants one and none runs. */
    void maybeCheckpoint(Runnable checkpoint) {
        if (failure.get() == null && journal.checkpointDue() && checkpointing.compareAndSet(false, true)) {
            checkpointThread = Thread.ofVirtual()
                    .name("kubeloop-store-checkpoint")
                    .start(() -> {
                        try {
                            checkpoint.run();
                        } catch (RuntimeException e) {
                            // the journal keeps its previous snapshot and log; a later write asks again
                            LOG.warn("background checkpoint failed: {}", e.toString());
                        } finally {
                            checkpointing.set(false);
                        }
                    });
        }
    }

    /** Waits for a running background checkpoint, then closes (flushes) the journal. */
    void close() {
        Thread t = checkpointThread;
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        journal.close();
    }
}
