package io.kubeloop.apiserver.internal.storage;

import java.util.function.Consumer;

/**
 * Where {@link VersionedStore} makes writes durable: the seam for the write-ahead log.
 *
 * <p>Protocol per write: {@link #append(Mutation)} is called inside the store's commit lock, in
 * revision order, before the new state becomes visible; the returned {@link Durability} is awaited after
 * the lock is released and before the write is acknowledged to the client. A WAL with group commit
 * therefore buffers in {@code append} and fsyncs in {@link Durability#await()} (many writers share one
 * fsync); a WAL whose {@code append(byte[])} is durable on return may simply do all the work in
 * {@code append} and return {@link Durability#DONE}. {@link Mutation#toBytes()} is the byte form.
 *
 * <p><b>Ordering.</b> A journal persists mutations in append order: when the durability of one
 * mutation is reached, every mutation appended before it is durable too. The store relies on this to
 * make a write visible (to reads and watches) only once it and everything before it are durable.
 *
 * <p>On start the store calls {@link #replay(Consumer)} once, before serving, and applies every
 * mutation in order; {@link #recoveredRevision()} then tells it where revisions continue.
 * {@link #checkpoint(long, Iterable)} hands the whole current state to a journal that wants to compact;
 * the store does so on a background thread whenever {@link #checkpointDue()} says so.
 *
 * <p><b>Thread safety.</b> {@code append} is called by one thread at a time (under the store lock);
 * {@code Durability.await()} is called concurrently by many writers; {@code checkpoint} runs
 * concurrently with appends (never with another checkpoint); {@code checkpointDue} from any thread.
 */
public interface Journal extends AutoCloseable {

    /** Records one write; see the class protocol. Throwing fails the write (nothing is committed). */
    Durability append(Mutation mutation);

    /** Feeds every recorded mutation, oldest first, to {@code sink}. Default: nothing recorded. */
    default void replay(Consumer<Mutation> sink) {}

    /**
     * The highest revision the last {@link #replay} found, including revisions whose mutations a
     * snapshot no longer lists (objects deleted before a checkpoint): new revisions must be above it.
     * Default: 0.
     */
    default long recoveredRevision() {
        return 0;
    }

    /**
     * Offers the complete state at {@code revision} (one non-delete mutation per object, at its
     * revision) for compaction: it contains every mutation up to {@code revision}, all of them
     * durable. Default: ignored. Called under no store lock; the iterable is a consistent snapshot.
     *
     * @param revision the store's revision the state is at
     * @param state the objects at that revision
     */
    default void checkpoint(long revision, Iterable<Mutation> state) {}

    /**
     * Whether the journal would like a {@link #checkpoint} now (e.g. its log has grown past a
     * threshold). Called after writes; must be cheap. Default: never.
     */
    default boolean checkpointDue() {
        return false;
    }

    /** Flushes and releases resources. */
    @Override
    default void close() {}

    /** The in-memory journal: records nothing, every write is "durable" at once. */
    static Journal inMemory() {
        return mutation -> Durability.DONE;
    }

    /** A pending durability promise. */
    @FunctionalInterface
    interface Durability {

        /** Already durable. */
        Durability DONE = () -> {};

        /** Blocks until the write is on stable storage; throws (unchecked) if it cannot be. */
        void await();
    }
}
