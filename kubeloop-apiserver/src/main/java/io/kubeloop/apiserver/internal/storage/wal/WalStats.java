package io.kubeloop.apiserver.internal.storage.wal;

/**
 * Counters since the log was opened; {@code records / batches} is the group-commit factor.
 *
 * @param records records made durable
 * @param bytes bytes written for them, framing included
 * @param batches group commits: one write and one {@code force} each, however many records
 * @param syncs {@code force} calls on segment files, batches and segment rolls included
 * @param segments segment files currently in the directory
 */
public record WalStats(long records, long bytes, long batches, long syncs, int segments) {}
