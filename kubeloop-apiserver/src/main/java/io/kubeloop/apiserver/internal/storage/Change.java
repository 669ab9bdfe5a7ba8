package io.kubeloop.apiserver.internal.storage;

import tools.jackson.databind.node.ObjectNode;

/**
 * What a {@link VersionedStore#write write function} decided to do with one key.
 *
 * <p>Immutable values; the {@link ObjectNode} handed over becomes the store's and must not be
 * touched afterwards.
 */
public sealed interface Change {

    /** Store {@code object} (create or replace); the store stamps its resourceVersion. */
    record Put(ObjectNode object) implements Change {}

    /** Remove the key; the DELETED event carries the last state. */
    record Delete() implements Change {}

    /** Nothing to write (e.g. an identical update); the answer is the current state. */
    record Keep() implements Change {}

    /** Validate only ({@code dryRun=All}): no revision, no event; the answer is {@code object} unstored. */
    record DryRun(ObjectNode object, boolean delete) implements Change {}

    /** Store {@code object}. */
    static Change put(ObjectNode object) {
        return new Put(object);
    }

    /** Remove the key. */
    static Change delete() {
        return new Delete();
    }

    /** Leave the key as it is. */
    static Change keep() {
        return new Keep();
    }
}
