package io.kubeloop.apiserver.storage;

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
 * <p>On start the store calls {@link #replay(Consumer)} once, before serving, and applies every
 * mutation in order. {@link #checkpoint(Iterable)} hands the whole current state to a journal that
 * wants to compact.
 *
 * <p><b>Thread safety.</b> {@code append} is called by one thread at a time (under the store lock);
 * {@code Durability.await()} is called concurrently by many writers.
 */
public interface Journal extends AutoCloseable {

    /** Records one write; see the class protocol. Throwing fails the write (nothing is committed). */
    Durability append(Mutation mutation);

    /** Feeds every recorded mutation, oldest first, to {@code sink}. Default: nothing recorded. */
    default void replay(Consumer<Mutation> sink) {
    }

    /**
     * Offers the complete current state (one non-delete mutation per object, at its revision, plus
     * the current revision as the maximum) for compaction. Default: ignored. Called under no lock;
     * the iterable is a consistent snapshot.
     */
    default void checkpoint(Iterable<Mutation> state) {
    }

    /** Flushes and releases resources. */
    @Override
    default void close() {
    }

    /** The in-memory journal: records nothing, every write is "durable" at once. */
    static Journal inMemory() {
        return mutation -> Durability.DONE;
    }

    /** A pending durability promise. */
    @FunctionalInterface
    interface Durability {

        /** Already durable. */
        Durability DONE = () -> {
        };

        /** Blocks until the write is on stable storage; throws (unchecked) if it cannot be. */
        void await();
    }
}
